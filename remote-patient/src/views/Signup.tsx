import { useState } from 'react';
import { GENDERS, MARITAL_STATUSES, type Gender, type MaritalStatus } from 'shared-contracts';
import { SelectField, SignupForm, TextField } from 'shared-ui';

export default function Signup() {
  const [DOB, setDOB] = useState('');
  const [gender, setGender] = useState<Gender>('Prefer not to say');
  const [maritalStatus, setMaritalStatus] = useState<MaritalStatus>('Unmarried');
  const [occupation, setOccupation] = useState('');
  const [address, setAddress] = useState({ street: '', city: '', state: '', pinCode: '' });
  const setAddressField = (field: keyof typeof address) => (value: string) =>
    setAddress((a) => ({ ...a, [field]: value }));

  return (
    <SignupForm
      role="patient"
      extra={() => ({ gender, maritalStatus, occupation, address, ...(DOB ? { DOB } : {}) })}
      steps={[
        {
          title: 'About you',
          content: (
            <>
              <TextField label="Date of birth" type="date" value={DOB} onChange={setDOB} />
              <SelectField label="Gender" value={gender} options={GENDERS} onChange={setGender} />
              <SelectField label="Marital status" value={maritalStatus} options={MARITAL_STATUSES} onChange={setMaritalStatus} />
              <TextField label="Occupation" value={occupation} onChange={setOccupation} />
            </>
          ),
        },
        {
          title: 'Address',
          content: (
            <>
              <TextField label="Street" value={address.street} onChange={setAddressField('street')} autoComplete="street-address" />
              <TextField label="City" value={address.city} onChange={setAddressField('city')} />
              <TextField label="State" value={address.state} onChange={setAddressField('state')} />
              <TextField label="Pin code" value={address.pinCode} onChange={setAddressField('pinCode')} autoComplete="postal-code" />
            </>
          ),
        },
      ]}
    />
  );
}
