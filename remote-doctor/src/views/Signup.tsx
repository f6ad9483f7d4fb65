import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { GENDERS, MIN_YEARS_OF_EXPERIENCE, type Gender } from 'shared-contracts';
import { dashboardPath, serverError, signup, useSession } from 'shared-auth';
import { Heading, MultiStepForm, Narrow, Page, SelectField, TextField, splitList } from 'shared-ui';

export default function Signup() {
  const navigate = useNavigate();
  const startSession = useSession((s) => s.login);
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [yearsOfExperience, setYears] = useState(String(MIN_YEARS_OF_EXPERIENCE));
  const [specialization, setSpecialization] = useState('');
  const [qualifications, setQualifications] = useState('');
  const [gender, setGender] = useState<Gender>('Prefer not to say');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function finish() {
    setBusy(true);
    setError(null);
    try {
      const { token, role } = await signup('doctor', {
        name, email, password, gender,
        yearsOfExperience: Number(yearsOfExperience),
        specialization: splitList(specialization),
        qualifications: splitList(qualifications),
      });
      startSession(token, role);
      navigate(dashboardPath(role));
    } catch (err) {
      setError((await serverError(err)) ?? '');
    } finally {
      setBusy(false);
    }
  }

  return (
    <Page>
      <Narrow>
        <Heading>Create your doctor account</Heading>
        <MultiStepForm
          label="Doctor signup"
          busy={busy}
          onFinish={finish}
          error={error !== null && <>Could not register. Try again?{error && <small><br />{error}</small>}</>}
          steps={[
            {
              title: 'Account',
              content: (
                <>
                  <TextField label="Name" value={name} onChange={setName} autoComplete="name" />
                  <TextField label="Email" type="email" value={email} onChange={setEmail} autoComplete="email" />
                  <TextField label="Password" type="password" value={password} onChange={setPassword} autoComplete="new-password" placeholder="At least 8 characters" />
                </>
              ),
            },
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
      </Narrow>
    </Page>
  );
}
