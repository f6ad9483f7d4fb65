import { useId } from 'react';
import { useWatch } from 'react-hook-form';
import {
  DOCTOR_REGISTER_LABELS,
  DOCTOR_REGISTERS,
  DoctorSignup,
  GENDERS,
  MIN_YEARS_OF_EXPERIENCE,
  REGISTRATION_NUMBER_MESSAGES,
  type DoctorRegister,
} from '@careloop/shared-contracts';
import { EMPTY_ACCOUNT, FormSelectField, FormTextField, SignupForm, listFromText, useSchemaForm } from '@careloop/shared-ui';

/** The api's signup schema; the lists are typed as comma-separated text (SPEC §5). */
const SignupFormSchema = DoctorSignup.extend({
  specialization: listFromText(DoctorSignup.shape.specialization),
  qualifications: listFromText(DoctorSignup.shape.qualifications),
});

/** What the chosen register's numbers look like, under the number field. */
function RegistrationNumberField() {
  const register = useWatch({ name: 'registration.register' }) as DoctorRegister | '';
  const hintId = useId();
  return (
    <>
      <FormTextField name="registration.number" label="Registration number" autoComplete="off" describedBy={hintId} />
      <p id={hintId}>
        {register
          ? `${REGISTRATION_NUMBER_MESSAGES[register]}. An operator checks it in the register before you can send connection requests.`
          : 'Choose your register first. An operator checks the number before you can send connection requests.'}
      </p>
    </>
  );
}

export default function Signup() {
  const form = useSchemaForm(SignupFormSchema, {
    ...EMPTY_ACCOUNT,
    yearsOfExperience: String(MIN_YEARS_OF_EXPERIENCE),
    specialization: '',
    qualifications: '',
    gender: 'Prefer not to say',
    registration: { register: '', number: '' },
  });

  return (
    <SignupForm
      role="doctor"
      form={form}
      steps={[
        {
          title: 'Practice',
          fields: ['registration.register', 'registration.number', 'yearsOfExperience', 'specialization', 'qualifications'],
          content: (
            <>
              <FormSelectField
                name="registration.register"
                label="Professional register"
                options={DOCTOR_REGISTERS}
                optionLabels={DOCTOR_REGISTER_LABELS}
              />
              <RegistrationNumberField />
              <FormTextField name="yearsOfExperience" label="Years of experience" type="number" min={MIN_YEARS_OF_EXPERIENCE} />
              <FormTextField
                name="specialization"
                label="Specialization (comma-separated)"
                placeholder="Cardiology, Internal medicine"
              />
              <FormTextField name="qualifications" label="Qualifications (comma-separated)" placeholder="MBBS, MD" />
            </>
          ),
        },
        {
          title: 'About you',
          fields: ['gender'],
          content: <FormSelectField name="gender" label="Gender" options={GENDERS} />,
        },
      ]}
    />
  );
}
