import { useEffect, useState, type ReactNode } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router-dom';
import type { DoctorCompleteProfile, Gender, PatientCompleteProfile, Role } from 'shared-contracts';
import { completeProfile, profileKey, roleTitle, serverError, useSession } from 'shared-auth';
import { Banner, Button, Heading, Narrow, Page } from './components';

/** Everything but 'Prefer not to say', which complete-profile does not offer (SPEC §5). */
export const COMPLETE_PROFILE_GENDERS: readonly Gender[] = ['Male', 'Female', 'Other'];

type Body<R extends Role> = R extends 'patient' ? PatientCompleteProfile : DoctorCompleteProfile;

/** After Google sign-in: every field required; success → message, then the login route. */
export function CompleteProfileForm<R extends Role>({
  role, body, children,
}: { role: R; body(): Body<R>; children: ReactNode }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [message, setMessage] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const done = message?.tone === 'success';

  useEffect(() => {
    if (!done) return;
    const timer = setTimeout(() => navigate(`/login/${role}`), 1200);
    return () => clearTimeout(timer);
  }, [done, navigate, role]);

  async function submit() {
    setBusy(true);
    setMessage(null);
    try {
      const res = await (role === 'patient'
        ? completeProfile('patient', body() as PatientCompleteProfile)
        : completeProfile('doctor', body() as DoctorCompleteProfile));
      if (!res.token) {
        setMessage({ tone: 'error', text: 'No token received' });
        return;
      }
      useSession.getState().login(res.token, role);
      // The cached profile still says "incomplete": read it afresh.
      queryClient.removeQueries({ queryKey: profileKey(role) });
      setMessage({ tone: 'success', text: 'Profile completed successfully!' });
    } catch (err) {
      setMessage({ tone: 'error', text: (await serverError(err)) ?? 'An unexpected error occurred' });
    } finally {
      setBusy(false);
    }
  }

  return (
    <Page>
      <Narrow>
        <Heading>Complete your {roleTitle(role).toLowerCase()} profile</Heading>
        <p>A few details before you start. Every field is required.</p>
        <form
          aria-label="Complete profile"
          onSubmit={(e) => {
            e.preventDefault();
            void submit();
          }}
        >
          {children}
          {message && <Banner tone={message.tone}>{message.text}</Banner>}
          <Button type="submit" disabled={busy || done}>
            Submit
          </Button>
        </form>
      </Narrow>
    </Page>
  );
}
