import { useState } from 'react';
import { MARITAL_STATUSES, type Gender, type MaritalStatus } from 'shared-contracts';
import { COMPLETE_PROFILE_GENDERS, CompleteProfileForm, SelectField, TextField } from 'shared-ui';

export default function CompleteProfile() {
  const [DOB, setDOB] = useState('');
  const [gender, setGender] = useState<Gender | ''>('');
  const [maritalStatus, setMaritalStatus] = useState<MaritalStatus | ''>('');
  const [occupation, setOccupation] = useState('');
  const [address, setAddress] = useState({ state: '', city: '', street: '', pinCode: '' });
  const setAddressField = (field: keyof typeof address) => (value: string) =>
    setAddress((a) => ({ ...a, [field]: value }));

  return (
    <CompleteProfileForm
      role="patient"
      body={() => ({ DOB, gender: gender as Gender, maritalStatus: maritalStatus as MaritalStatus, occupation, address })}
    >
      <TextField label="Date of birth" type="date" value={DOB} onChange={setDOB} required />
      <SelectField label="Gender" value={gender} options={COMPLETE_PROFILE_GENDERS} onChange={setGender} required />
      <SelectField label="Marital status" value={maritalStatus} options={MARITAL_STATUSES} onChange={setMaritalStatus} required />
      <TextField label="Occupation" value={occupation} onChange={setOccupation} required />
      <TextField label="State" value={address.state} onChange={setAddressField('state')} required />
      <TextField label="City" value={address.city} onChange={setAddressField('city')} required />
      <TextField label="Street" value={address.street} onChange={setAddressField('street')} required />
      <TextField label="Pin code" value={address.pinCode} onChange={setAddressField('pinCode')} required />
    </CompleteProfileForm>
  );
}
