import { useState } from 'react';
import { Link, Navigate, useNavigate, useSearchParams } from '@careloop/shared-router';
import { googleSignInErrorText, LoginBody, VerifyLoginCodeBody, type Role } from '@careloop/shared-contracts';
import {
  clearIdleSignOutNotice,
  dashboardPath,
  endpointUrl,
  login,
  roleTitle,
  idleSignOutNotice,
  httpStatus,
  serverError,
  useSession,
  verifyLoginCode,
} from '@careloop/shared-auth';
import { Banner, ButtonAnchor, Heading, Narrow, Page, Row, TextButton } from './components';
import { FormTextField, SubmitButton } from './fields';
import { SchemaForm } from './SchemaForm';
import { useSchemaForm } from './formSchemas';
import { SessionHandoff } from './SessionHandoff';

const FAILED = 'Could not authenticate';
/** A refused code (401): the usual cause is a phone whose clock drifted (SPEC §8's banner, then why). */
export const CODE_REFUSED = `${FAILED}. That code didn't work — check your authenticator's time, or use a recovery code.`;
/** The code step's field of the api's body (the account id comes from the first step). */
const CodeForm = VerifyLoginCodeBody.pick({ code: true });

/** /login/patient and /login/doctor: the role comes from the path (SPEC §6). */
export function Login({ role }: { role: Role }) {
  const navigate = useNavigate();
  const startSession = useSession((s) => s.login);
  const credentials = useSchemaForm(LoginBody, { email: '', password: '' });
  const codeForm = useSchemaForm(CodeForm, { code: '' });
  // The code step asks for the app's code; a person without their phone switches to a recovery code.
  const [useRecoveryCode, setUseRecoveryCode] = useState(false);
  const [params] = useSearchParams();
  // Google sign-in for an account with two-factor on comes back asking for the code step.
  const [accountId, setAccountId] = useState<string | null>(() =>
    params.get('twoFactorRequired') === 'true' ? params.get(role === 'patient' ? 'patientId' : 'doctorId') : null,
  );
  // The banner's text when the last attempt failed (null: none shown).
  const [failed, setFailed] = useState<string | null>(null);
  // SPEC §8: the server's message is kept, not shown.
  const [, setServerMessage] = useState<string | undefined>();
  // Google sign-in returns here with ?token=<one-time code>&role (SessionHandoff below), or with ?error.
  const googleError = googleSignInErrorText(params.get('error'));
  const { isAuthenticated, role: signedInAs } = useSession();

  // Read once: stays on screen while the person signs in again.
  const [idleNotice] = useState(idleSignOutNotice);

  const finish = (token: string) => {
    clearIdleSignOutNotice();
    startSession(token, role);
    navigate(dashboardPath(role));
  };

  async function attempt(call: () => Promise<void>, refused = FAILED) {
    setFailed(null);
    try {
      await call();
    } catch (err) {
      setServerMessage(await serverError(err));
      setFailed(httpStatus(err) === 401 ? refused : FAILED);
    }
  }

  const submitCredentials = (body: LoginBody) =>
    attempt(async () => {
      const res = await login(role, body);
      const id = role === 'patient' ? res.patientId : res.doctorId;
      if (res.twoFactorRequired && id) setAccountId(id);
      else if (res.token) finish(res.token);
      else throw new Error('no token');
    });

  const submitCode = (code: string) =>
    attempt(async () => {
      finish((await verifyLoginCode(role, accountId!, code)).token);
    }, CODE_REFUSED);

  const loginPage = (
    <Page>
      <Narrow>
        <Heading>{roleTitle(role)} Sign In</Heading>
        {idleNotice && <Banner tone="info">{idleNotice}</Banner>}
        {googleError && <Banner tone="error">{googleError}</Banner>}
        {accountId ? (
          <SchemaForm key="code" form={codeForm} onSubmit={({ code }) => submitCode(code)}>
            {useRecoveryCode ? (
              <FormTextField
                key="recovery"
                name="code"
                label="Recovery code"
                autoComplete="off"
                autoCapitalize="characters"
                spellCheck={false}
                maxLength={13}
                required
                autoFocus
              />
            ) : (
              <FormTextField
                key="app"
                name="code"
                label="6-digit code from your authenticator app"
                autoComplete="one-time-code"
                inputMode="numeric"
                maxLength={6}
                required
                autoFocus
              />
            )}
            {failed && <Banner tone="error">{failed}</Banner>}
            <Row>
              <SubmitButton>Verify</SubmitButton>
            </Row>
            <p>
              <TextButton
                onClick={() => {
                  codeForm.reset({ code: '' });
                  setFailed(null);
                  setUseRecoveryCode(!useRecoveryCode);
                }}
              >
                {useRecoveryCode ? 'Use the code from your authenticator app' : 'Lost your phone? Use a recovery code'}
              </TextButton>
            </p>
          </SchemaForm>
        ) : (
          <SchemaForm key="credentials" form={credentials} onSubmit={submitCredentials}>
            <FormTextField name="email" label="Email" type="email" autoComplete="username" required />
            <FormTextField name="password" label="Password" type="password" autoComplete="current-password" required />
            {failed && <Banner tone="error">{failed}</Banner>}
            <Row>
              <SubmitButton>Log In</SubmitButton>
            </Row>
          </SchemaForm>
        )}
        {!accountId && (
          <>
            <p>
              <Link to={`/${role}/forgot-password`}>Forgot Password</Link>
            </p>
            <p>
              No account yet? <Link to={`/${role}/signup`}>Sign up</Link>
            </p>
            {role === 'patient' && (
              <ButtonAnchor href={endpointUrl('patientGoogleSignIn')} $variant="secondary">
                Continue with Google
              </ButtonAnchor>
            )}
          </>
        )}
      </Narrow>
    </Page>
  );

  return (
    <SessionHandoff role={role}>
      {isAuthenticated && signedInAs === role ? <Navigate to={dashboardPath(role)} replace /> : loginPage}
    </SessionHandoff>
  );
}
