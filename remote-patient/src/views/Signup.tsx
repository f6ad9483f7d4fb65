import { GENDERS, MARITAL_STATUSES, PatientSignup } from '@careloop/shared-contracts';
import { EMPTY_ACCOUNT, FormSelectField, FormTextField, SignupForm, emptyAsUnset, useSchemaForm } from '@careloop/shared-ui';

/** The api's signup schema; a date of birth left empty is not sent. */
const SignupFormSchema = PatientSignup.extend({ DOB: emptyAsUnset(PatientSignup.shape.DOB) });

export default function Signup() {
  const form = useSchemaForm(SignupFormSchema, {
    ...EMPTY_ACCOUNT,
    DOB: '',
    gender: 'Prefer not to say',
    maritalStatus: 'Unmarried',
    occupation: '',
    address: { street: '', city: '', state: '', pinCode: '' },
  });

  return (
    <SignupForm
      role="patient"
      form={form}
      steps={[
        {
          title: 'About you',
          fields: ['DOB', 'gender', 'maritalStatus', 'occupation'],
          content: (
            <>
              <FormTextField name="DOB" label="Date of birth" type="date" />
              <FormSelectField name="gender" label="Gender" options={GENDERS} />
              <FormSelectField name="maritalStatus" label="Marital status" options={MARITAL_STATUSES} />
              <FormTextField name="occupation" label="Occupation" />
            </>
          ),
        },
        {
          title: 'Address',
          fields: ['address.street', 'address.city', 'address.state', 'address.pinCode'],
          content: (
            <>
              <FormTextField name="address.street" label="Street" autoComplete="street-address" />
              <FormTextField name="address.city" label="City" />
              <FormTextField name="address.state" label="State" />
              <FormTextField name="address.pinCode" label="Pin code" autoComplete="postal-code" />
            </>
          ),
        },
      ]}
    />
  );
}
