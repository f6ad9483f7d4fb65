import { useEffect, useState, type ReactNode } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { UseFormReturn } from 'react-hook-form';
import { useNavigate } from '@careloop/shared-router';
import { DoctorCompleteProfile, type Gender, type PatientCompleteProfile, type Role } from '@careloop/shared-contracts';
import { completeProfile, profileKey, roleTitle, serverError, useSession } from '@careloop/shared-auth';
import { Banner, Heading, Narrow, Page } from './components';
import { SubmitButton } from './fields';
import { fieldErrorsFrom, fieldNamesOf, listFromText } from './formSchemas';
import { SchemaForm } from './SchemaForm';

/** Everything but 'Prefer not to say', which complete-profile does not offer (SPEC §5). */
export const COMPLETE_PROFILE_GENDERS: readonly Gender[] = ['Male', 'Female', 'Other'];

/** The doctor's complete-profile body with the lists typed as comma-separated text (SPEC §5). */
export const DoctorCompleteProfileForm = DoctorCompleteProfile.extend({
  specialization: listFromText(DoctorCompleteProfile.shape.specialization),
  qualifications: listFromText(DoctorCompleteProfile.shape.qualifications),
});

type Body<R extends Role> = R extends 'patient' ? PatientCompleteProfile : DoctorCompleteProfile;

/**
 * After Google sign-in: every field required (the api's complete-profile schema, in a form the
 * role's view made with useSchemaForm); success → message, then the login route. A server error
 * is shown as SPEC §8 says, and beside its field when it names one.
 */
export function CompleteProfileForm<R extends Role, Values extends Record<string, unknown>>({
  role,
  form,
  children,
}: {
  role: R;
  form: UseFormReturn<Values, unknown, Body<R>>;
  children: ReactNode;
}) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [message, setMessage] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);
  const done = message?.tone === 'success';

  useEffect(() => {
    if (!done) return;
    const timer = setTimeout(() => navigate(`/login/${role}`), 1200);
    return () => clearTimeout(timer);
  }, [done, navigate, role]);

  async function submit(body: Body<R>) {
    setMessage(null);
    try {
      const res = await (role === 'patient'
        ? completeProfile('patient', body as PatientCompleteProfile)
        : completeProfile('doctor', body as DoctorCompleteProfile));
      if (!res.token) {
        setMessage({ tone: 'error', text: 'No token received' });
        return;
      }
      useSession.getState().login(res.token, role);
      // The cached profile still says "incomplete": read it afresh.
      queryClient.removeQueries({ queryKey: profileKey(role) });
      setMessage({ tone: 'success', text: 'Profile completed successfully!' });
    } catch (err) {
      const reason = await serverError(err);
      for (const { field, message: text } of fieldErrorsFrom(reason, fieldNamesOf(form.getValues()))) {
        form.setError(field as never, { type: 'server', message: text });
      }
      setMessage({ tone: 'error', text: reason ?? 'An unexpected error occurred' });
    }
  }

  return (
    <Page>
      <Narrow>
        <Heading>Complete your {roleTitle(role).toLowerCase()} profile</Heading>
        <p>A few details before you start. Every field is required.</p>
        <SchemaForm label="Complete profile" form={form} onSubmit={submit}>
          {children}
          {message && <Banner tone={message.tone}>{message.text}</Banner>}
          <SubmitButton disabled={done}>Submit</SubmitButton>
        </SchemaForm>
      </Narrow>
    </Page>
  );
}
