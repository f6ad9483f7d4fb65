import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { GENDERS, MARITAL_STATUSES, type Gender, type MaritalStatus } from 'shared-contracts';
import { dashboardPath, serverError, signup, useSession } from 'shared-auth';
import { Heading, MultiStepForm, Narrow, Page, SelectField, TextField } from 'shared-ui';

export default function Signup() {
  const navigate = useNavigate();
  const startSession = useSession((s) => s.login);
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [DOB, setDOB] = useState('');
  const [gender, setGender] = useState<Gender>('Prefer not to say');
  const [maritalStatus, setMaritalStatus] = useState<MaritalStatus>('Unmarried');
  const [occupation, setOccupation] = useState('');
  const [address, setAddress] = useState({ street: '', city: '', state: '', pinCode: '' });
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const setAddressField = (field: keyof typeof address) => (value: string) =>
    setAddress((a) => ({ ...a, [field]: value }));

  async function finish() {
    setBusy(true);
    setError(null);
    try {
      const { token, role } = await signup('patient', {
        name, email, password, gender, maritalStatus, occupation, address,
        ...(DOB ? { DOB } : {}),
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
        <Heading>Create your patient account</Heading>
        <MultiStepForm
          label="Patient signup"
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
      </Narrow>
    </Page>
  );
}
