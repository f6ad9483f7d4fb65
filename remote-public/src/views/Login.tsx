import { useState } from 'react';
import { Link, Navigate, useNavigate, useSearchParams } from 'react-router-dom';
import { GOOGLE_SIGN_IN_ERRORS, type GoogleSignInError, type Role } from 'shared-contracts';
import {
  apiBaseUrl, dashboardPath, login, roleTitle, serverError, useSession, useSessionFromQuery, verifyLoginCode,
} from 'shared-auth';
import { Banner, Button, Heading, Narrow, Page, Row, TextField } from 'shared-ui';

const FAILED = 'Could not authenticate';

/** /login/patient and /login/doctor: the role comes from the path (SPEC §6). */
export default function Login({ role }: { role: Role }) {
  const navigate = useNavigate();
  const startSession = useSession((s) => s.login);
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [params] = useSearchParams();
  // Google sign-in for an account with two-factor on comes back asking for the code step.
  const [accountId, setAccountId] = useState<string | null>(() =>
    params.get('twoFactorRequired') === 'true' ? params.get(role === 'patient' ? 'patientId' : 'doctorId') : null,
  );
  const [failed, setFailed] = useState(false);
  // SPEC §8: the server's message is kept, not shown.
  const [, setServerMessage] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  // Google sign-in returns here with ?token&role, or with ?error.
  const handedOver = useSessionFromQuery(role);
  const googleError = GOOGLE_SIGN_IN_ERRORS[params.get('error') as GoogleSignInError] as string | undefined;
  const { isAuthenticated, role: signedInAs } = useSession();

  const finish = (token: string) => {
    startSession(token, role);
    navigate(dashboardPath(role));
  };

  async function attempt(call: () => Promise<void>) {
    setBusy(true);
    setFailed(false);
    try {
      await call();
    } catch (err) {
      setServerMessage(await serverError(err));
      setFailed(true);
    } finally {
      setBusy(false);
    }
  }

  const submitCredentials = () =>
    attempt(async () => {
      const res = await login(role, { email, password });
      const id = role === 'patient' ? res.patientId : res.doctorId;
      if (res.twoFactorRequired && id) setAccountId(id);
      else if (res.token) finish(res.token);
      else throw new Error('no token');
    });

  const submitCode = () =>
    attempt(async () => {
      finish((await verifyLoginCode(role, accountId!, code.trim())).token);
    });

  if (!handedOver) return null;
  if (isAuthenticated && signedInAs === role) return <Navigate to={dashboardPath(role)} replace />;

  return (
    <Page>
      <Narrow>
        <Heading>{roleTitle(role)} Sign In</Heading>
        {googleError && <Banner tone="error">{googleError}</Banner>}
        <form
          onSubmit={(e) => {
            e.preventDefault();
            void (accountId ? submitCode() : submitCredentials());
          }}
        >
          {accountId ? (
            <TextField
              label="2FA Code"
              value={code}
              onChange={setCode}
              inputMode="numeric"
              autoComplete="one-time-code"
              pattern="[0-9]{6}"
              maxLength={6}
              required
              autoFocus
            />
          ) : (
            <>
              <TextField label="Email" type="email" value={email} onChange={setEmail} autoComplete="username" required />
              <TextField
                label="Password"
                type="password"
                value={password}
                onChange={setPassword}
                autoComplete="current-password"
                required
              />
            </>
          )}
          {failed && <Banner tone="error">{FAILED}</Banner>}
          <Row>
            <Button type="submit" disabled={busy}>
              {accountId ? 'Verify' : 'Log In'}
            </Button>
          </Row>
        </form>
        {!accountId && (
          <>
            <p>
              <Link to={`/${role}/forgot-password`}>Forgot Password</Link>
            </p>
            <p>
              No account yet? <Link to={`/${role}/signup`}>Sign up</Link>
            </p>
            {role === 'patient' && (
              <Button as="a" href={`${apiBaseUrl()}/patient/auth/google`} $variant="secondary">
                Continue with Google
              </Button>
            )}
          </>
        )}
      </Narrow>
    </Page>
  );
}
