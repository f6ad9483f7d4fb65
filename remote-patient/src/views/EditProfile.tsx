import { useEffect } from 'react';
import { useNavigate } from '@careloop/shared-router';
import { GENDERS, MARITAL_STATUSES, PatientProfileUpdate, type Gender, type MaritalStatus } from '@careloop/shared-contracts';
import { usePatientProfile, useUpdateProfile } from '@careloop/shared-auth';
import {
  AccountFields,
  EDIT_ACCOUNT_FIELDS,
  FormSelectField,
  FormTextField,
  Heading,
  MultiStepForm,
  Narrow,
  Page,
  onlyFilledIn,
  useSchemaForm,
  savedState,
} from '@careloop/shared-ui';

const EMPTY = {
  name: '',
  email: '',
  password: '',
  currentPassword: '',
  occupation: '',
  gender: '' as Gender | '',
  maritalStatus: '' as MaritalStatus | '',
  address: { street: '', city: '', state: '', pinCode: '' },
};

/** Three-step edit; only filled-in fields are sent, and date of birth is not editable here (SPEC §5). */
export default function EditProfile() {
  const navigate = useNavigate();
  const { data } = usePatientProfile();
  const update = useUpdateProfile('patient');
  const form = useSchemaForm(onlyFilledIn(PatientProfileUpdate), EMPTY);
  const { reset } = form;
  useEffect(() => {
    if (!data) return;
    const { name, email, occupation, gender, maritalStatus, address } = data.patient;
    reset({ ...EMPTY, name, email, occupation, gender, maritalStatus, address: { ...address } });
  }, [data, reset]);

  return (
    <Page>
      <Narrow>
        <Heading>Edit your profile</Heading>
        <MultiStepForm
          label="Edit profile"
          form={form}
          failure={() => 'Could not update. Try again?'}
          onFinish={async (changes) => {
            await update.mutateAsync(changes);
            navigate('/patient/dashboard', { state: savedState('Your profile was saved.') });
          }}
          steps={[
            {
              title: 'Account',
              fields: EDIT_ACCOUNT_FIELDS,
              content: <AccountFields mode="edit" pendingEmail={data?.patient.pendingEmail} />,
            },
            {
              title: 'About you',
              fields: ['gender', 'maritalStatus', 'occupation'],
              content: (
                <>
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
                  <FormTextField name="address.street" label="Street" />
                  <FormTextField name="address.city" label="City" />
                  <FormTextField name="address.state" label="State" />
                  <FormTextField name="address.pinCode" label="Pin code" />
                </>
              ),
            },
          ]}
        />
      </Narrow>
    </Page>
  );
}
