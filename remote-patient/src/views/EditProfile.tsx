import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { GENDERS, MARITAL_STATUSES, type Gender, type MaritalStatus } from 'shared-contracts';
import { usePatientProfile, useUpdateProfile } from 'shared-auth';
import { AccountFields, Heading, MultiStepForm, Narrow, Page, SelectField, TextField, withoutEmpty } from 'shared-ui';

const EMPTY = {
  name: '', email: '', password: '', occupation: '',
  gender: '' as Gender | '', maritalStatus: '' as MaritalStatus | '',
  address: { street: '', city: '', state: '', pinCode: '' },
};

/** Three-step edit; only filled-in fields are sent, and date of birth is not editable here (SPEC §5). */
export default function EditProfile() {
  const navigate = useNavigate();
  const { data } = usePatientProfile();
  const update = useUpdateProfile('patient');
  const [form, setForm] = useState(EMPTY);
  useEffect(() => {
    if (!data) return;
    const { name, email, occupation, gender, maritalStatus, address } = data.patient;
    setForm({ ...EMPTY, name, email, occupation, gender, maritalStatus, address: { ...address } });
  }, [data]);
  const set = (field: 'occupation') => (value: string) =>
    setForm((f) => ({ ...f, [field]: value }));
  const setAddress = (field: keyof typeof EMPTY.address) => (value: string) =>
    setForm((f) => ({ ...f, address: { ...f.address, [field]: value } }));

  return (
    <Page>
      <Narrow>
        <Heading>Edit your profile</Heading>
        <MultiStepForm
          label="Edit profile"
          busy={update.isPending}
          error={update.isError && 'Could not update. Try again?'}
          onFinish={() =>
            update.mutate(withoutEmpty(form) as Parameters<typeof update.mutate>[0], {
              onSuccess: () => navigate('/patient/dashboard'),
            })
          }
          steps={[
            {
              title: 'Account',
              content: <AccountFields value={form} onChange={(account) => setForm((f) => ({ ...f, ...account }))} mode="edit" />,
            },
            {
              title: 'About you',
              content: (
                <>
                  <SelectField label="Gender" value={form.gender} options={GENDERS} onChange={(gender) => setForm((f) => ({ ...f, gender }))} />
                  <SelectField label="Marital status" value={form.maritalStatus} options={MARITAL_STATUSES} onChange={(maritalStatus) => setForm((f) => ({ ...f, maritalStatus }))} />
                  <TextField label="Occupation" value={form.occupation} onChange={set('occupation')} />
                </>
              ),
            },
            {
              title: 'Address',
              content: (
                <>
                  <TextField label="Street" value={form.address.street} onChange={setAddress('street')} />
                  <TextField label="City" value={form.address.city} onChange={setAddress('city')} />
                  <TextField label="State" value={form.address.state} onChange={setAddress('state')} />
                  <TextField label="Pin code" value={form.address.pinCode} onChange={setAddress('pinCode')} />
                </>
              ),
            },
          ]}
        />
      </Narrow>
    </Page>
  );
}
