import { useState } from 'react';
import { MIN_YEARS_OF_EXPERIENCE, type Gender } from 'shared-contracts';
import { COMPLETE_PROFILE_GENDERS, CompleteProfileForm, SelectField, TextField, splitList } from 'shared-ui';

export default function CompleteProfile() {
  const [gender, setGender] = useState<Gender | ''>('');
  const [specialization, setSpecialization] = useState('');
  const [yearsOfExperience, setYears] = useState('');
  const [qualifications, setQualifications] = useState('');

  return (
    <CompleteProfileForm
      role="doctor"
      body={() => ({
        gender: gender as Gender,
        specialization: splitList(specialization),
        yearsOfExperience: Number(yearsOfExperience),
        qualifications: splitList(qualifications),
      })}
    >
      <SelectField label="Gender" value={gender} options={COMPLETE_PROFILE_GENDERS} onChange={setGender} required />
      <TextField label="Specialization (comma-separated)" value={specialization} onChange={setSpecialization} required />
      <TextField label="Years of experience" type="number" min={MIN_YEARS_OF_EXPERIENCE} value={yearsOfExperience} onChange={setYears} required />
      <TextField label="Qualifications (comma-separated)" value={qualifications} onChange={setQualifications} required />
    </CompleteProfileForm>
  );
}
