import type { Role } from '@careloop/shared-contracts';
import { useEndSessions, useSessions } from '@careloop/shared-auth';
import { Banner, Button, Card, EmptyState, Heading, Page, Row } from './components';
import { ClinicTimeZoneNote, useClinicTime } from './dates';

/**
 * /patient/sessions and /doctor/sessions: where the account is signed in (browser and system,
 * address, since when, last used), this device marked; any other session can be signed out, or
 * all of them at once.
 */
export function SessionsView({ role }: { role: Role }) {
  const { data, isError } = useSessions(role);
  const end = useEndSessions(role);
  const { format: formatDateTime } = useClinicTime();
  const others = data?.sessions.filter((s) => !s.current) ?? [];
  return (
    <Page>
      <Heading>Signed-in devices</Heading>
      <p>
        Where your account is signed in now. Sign out any device you do not recognise, then change your password. A session also
        ends on its own after a while without use.
      </p>
      <ClinicTimeZoneNote />
      {isError && <Banner tone="error">Could not load your sessions.</Banner>}
      {end.isError && <Banner tone="error">Could not sign that session out. Please try again.</Banner>}
      <Card>
        {data?.sessions.length === 0 && <EmptyState>No active sessions.</EmptyState>}
        {data && data.sessions.length > 0 && (
          <ul aria-label="Sessions" style={{ listStyle: 'none', margin: 0, padding: 0 }}>
            {data.sessions.map((s) => (
              <li key={s.id} aria-label={s.device} style={{ borderTop: '1px solid #d9e2ec', padding: '0.75rem 0' }}>
                <Row style={{ justifyContent: 'space-between', alignItems: 'center' }}>
                  <div>
                    <strong>{s.device}</strong>
                    {s.current && <span style={{ marginLeft: '0.5rem', fontWeight: 600 }}>· This device</span>}
                    <div>
                      {s.ip ? `From ${s.ip} · ` : ''}Signed in {formatDateTime(s.startedAt)} · Last active{' '}
                      {formatDateTime(s.lastSeenAt)}
                    </div>
                  </div>
                  {!s.current && (
                    <Button
                      type="button"
                      $variant="secondary"
                      busy={end.isPending}
                      aria-label={`Sign out ${s.device}`}
                      onClick={() => end.mutate(s.id)}
                    >
                      Sign out
                    </Button>
                  )}
                </Row>
              </li>
            ))}
          </ul>
        )}
        {others.length > 0 && (
          <Row style={{ marginTop: '1rem' }}>
            <Button type="button" $variant="danger" busy={end.isPending} onClick={() => end.mutate('others')}>
              Sign out all other sessions
            </Button>
          </Row>
        )}
      </Card>
    </Page>
  );
}
