import { DoctorSignup, GENDERS, MIN_YEARS_OF_EXPERIENCE } from '@careloop/shared-contracts';
import { EMPTY_ACCOUNT, FormSelectField, FormTextField, SignupForm, listFromText, useSchemaForm } from '@careloop/shared-ui';

/** The api's signup schema; the lists are typed as comma-separated text (SPEC §5). */
const SignupFormSchema = DoctorSignup.extend({
  specialization: listFromText(DoctorSignup.shape.specialization),
  qualifications: listFromText(DoctorSignup.shape.qualifications),
});

export default function Signup() {
  const form = useSchemaForm(SignupFormSchema, {
    ...EMPTY_ACCOUNT,
    yearsOfExperience: String(MIN_YEARS_OF_EXPERIENCE),
    specialization: '',
    qualifications: '',
    gender: 'Prefer not to say',
  });

  return (
    <SignupForm
      role="doctor"
      form={form}
      steps={[
        {
          title: 'Practice',
          fields: ['yearsOfExperience', 'specialization', 'qualifications'],
          content: (
            <>
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
