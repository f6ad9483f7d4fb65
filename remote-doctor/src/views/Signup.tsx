import { useState } from 'react';
import { GENDERS, MIN_YEARS_OF_EXPERIENCE, type Gender } from 'shared-contracts';
import { SelectField, SignupForm, TextField, splitList } from 'shared-ui';

export default function Signup() {
  const [yearsOfExperience, setYears] = useState(String(MIN_YEARS_OF_EXPERIENCE));
  const [specialization, setSpecialization] = useState('');
  const [qualifications, setQualifications] = useState('');
  const [gender, setGender] = useState<Gender>('Prefer not to say');

  return (
    <SignupForm
      role="doctor"
      extra={() => ({
        gender,
        yearsOfExperience: Number(yearsOfExperience),
        specialization: splitList(specialization),
        qualifications: splitList(qualifications),
      })}
      steps={[
        {
          title: 'Practice',
          content: (
            <>
              <TextField label="Years of experience" type="number" min={MIN_YEARS_OF_EXPERIENCE} value={yearsOfExperience} onChange={setYears} />
              <TextField label="Specialization (comma-separated)" value={specialization} onChange={setSpecialization} placeholder="Cardiology, Internal medicine" />
              <TextField label="Qualifications (comma-separated)" value={qualifications} onChange={setQualifications} placeholder="MBBS, MD" />
            </>
          ),
        },
        {
          title: 'About you',
          content: <SelectField label="Gender" value={gender} options={GENDERS} onChange={setGender} />,
        },
      ]}
    />
  );
}
