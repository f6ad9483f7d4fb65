import { MARITAL_STATUSES, PatientCompleteProfile } from '@careloop/shared-contracts';
import {
  COMPLETE_PROFILE_GENDERS,
  CompleteProfileForm,
  FormSelectField,
  FormTextField,
  useSchemaForm,
} from '@careloop/shared-ui';

export default function CompleteProfile() {
  const form = useSchemaForm(PatientCompleteProfile, {
    DOB: '',
    gender: '',
    maritalStatus: '',
    occupation: '',
    address: { state: '', city: '', street: '', pinCode: '' },
  });

  return (
    <CompleteProfileForm role="patient" form={form}>
      <FormTextField name="DOB" label="Date of birth" type="date" required />
      <FormSelectField name="gender" label="Gender" options={COMPLETE_PROFILE_GENDERS} />
      <FormSelectField name="maritalStatus" label="Marital status" options={MARITAL_STATUSES} />
      <FormTextField name="occupation" label="Occupation" required />
      <FormTextField name="address.state" label="State" required />
      <FormTextField name="address.city" label="City" required />
      <FormTextField name="address.street" label="Street" required />
      <FormTextField name="address.pinCode" label="Pin code" required />
    </CompleteProfileForm>
  );
}
