import { useId, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { ConnectionRequestBody, registrationLine, type Role } from '@careloop/shared-contracts';
import {
  otherRole,
  requestConnection,
  roleTitle,
  serverError,
  useConnectionRequests,
  useRespondToRequest,
  type RequestDirection,
} from '@careloop/shared-auth';
import { Banner, Button, Card, EmptyState, Heading, Row } from './components';
import { FormTextField, SubmitButton } from './fields';
import { Items } from './AssignedPeople';
import { useSchemaForm } from './formSchemas';
import { SchemaForm } from './SchemaForm';

const connectTitle = (role: Role) => (role === 'doctor' ? 'Connect to Patients' : 'Connect to Doctors');

/**
 * assign-patients / assign-doctors: ask someone of the other role, by e-mail, to connect.
 * `blockedReason`: why the caller may not send requests yet (a doctor's unverified registration);
 * the form stays visible, its button disabled and described by the reason.
 */
export function ConnectRequestForm({ role, blockedReason }: { role: Role; blockedReason?: string }) {
  const reasonId = useId();
  const queryClient = useQueryClient();
  const other = roleTitle(otherRole(role)).toLowerCase();
  const form = useSchemaForm(ConnectionRequestBody, { email: '' });
  const [result, setResult] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);

  async function submit(email: string) {
    setResult(null);
    try {
      const { message } = await requestConnection(role, email);
      setResult({ tone: 'success', text: message });
      form.reset();
      void queryClient.invalidateQueries({ queryKey: ['connection-requests', role] });
    } catch (err) {
      setResult({ tone: 'error', text: `Error: ${(await serverError(err)) ?? 'Could not send the request'}` });
    }
  }

  return (
    <Card>
      <Heading>{connectTitle(role)}</Heading>
      <p>
        Enter the e-mail your {other} uses for CareLoop. They will see your request and can accept it; once connected,{' '}
        {role === 'doctor' ? 'you can look after their records' : 'they can look after your records'}.
      </p>
      <SchemaForm form={form} onSubmit={({ email }) => submit(email)}>
        <FormTextField name="email" label={`${roleTitle(otherRole(role))}'s email`} type="email" required />
        {result && <Banner tone={result.tone}>{result.text}</Banner>}
        {blockedReason && <p id={reasonId}>{blockedReason}</p>}
        <SubmitButton disabled={blockedReason !== undefined} aria-describedby={blockedReason ? reasonId : undefined}>
          Send request
        </SubmitButton>
      </SchemaForm>
    </Card>
  );
}

/**
 * /{role}/view-incoming-requests (Accept, Cancel) and /{role}/view-outgoing-requests (Cancel):
 * Cancel sends reject; statuses are not shown (SPEC §4).
 */
export function RequestList({ role, direction }: { role: Role; direction: RequestDirection }) {
  const requests = useConnectionRequests(role, direction);
  const respond = useRespondToRequest(role);
  const other = otherRole(role);
  return (
    <Card>
      <Heading>{direction === 'incoming' ? 'Incoming requests' : 'Outgoing requests'}</Heading>
      {respond.isError && <Banner tone="error">Error: Could not handle request</Banner>}
      {requests.data?.length === 0 && <EmptyState>You&apos;re all caught-up :-)</EmptyState>}
      {requests.data && requests.data.length > 0 && (
        <Items aria-label={direction === 'incoming' ? 'Incoming requests' : 'Outgoing requests'}>
          {requests.data.map((r) => {
            const party = r[other];
            return (
              <li key={r._id}>
                <span>
                  {/* The api leaves an addressee's name out of the sender's list: the e-mail stands alone. */}
                  <strong>{party.name || party.email}</strong>
                  {party.name && <small>{party.email}</small>}
                  {/* A patient sees whether the doctor's professional registration was verified. */}
                  {'registration' in party && <small>{registrationLine(party.registration)}</small>}
                </span>
                <Row>
                  {direction === 'incoming' && (
                    <Button
                      type="button"
                      busy={respond.isPending}
                      onClick={() => respond.mutate({ id: r._id, action: 'accept' })}
                    >
                      Accept
                    </Button>
                  )}
                  <Button
                    type="button"
                    $variant="secondary"
                    busy={respond.isPending}
                    onClick={() => respond.mutate({ id: r._id, action: 'reject' })}
                  >
                    Cancel
                  </Button>
                </Row>
              </li>
            );
          })}
        </Items>
      )}
    </Card>
  );
}
