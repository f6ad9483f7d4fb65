import { MIN_YEARS_OF_EXPERIENCE } from '@careloop/shared-contracts';
import {
  COMPLETE_PROFILE_GENDERS,
  CompleteProfileForm,
  DoctorCompleteProfileForm,
  FormSelectField,
  FormTextField,
  useSchemaForm,
} from '@careloop/shared-ui';

export default function CompleteProfile() {
  const form = useSchemaForm(DoctorCompleteProfileForm, {
    gender: '',
    specialization: '',
    yearsOfExperience: '',
    qualifications: '',
  });

  return (
    <CompleteProfileForm role="doctor" form={form}>
      <FormSelectField name="gender" label="Gender" options={COMPLETE_PROFILE_GENDERS} />
      <FormTextField name="specialization" label="Specialization (comma-separated)" required />
      <FormTextField name="yearsOfExperience" label="Years of experience" type="number" min={MIN_YEARS_OF_EXPERIENCE} required />
      <FormTextField name="qualifications" label="Qualifications (comma-separated)" required />
    </CompleteProfileForm>
  );
}
