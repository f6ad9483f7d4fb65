import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Link, useLocation } from '@careloop/shared-router';
import styled from 'styled-components';
import {
  NOTIFICATION_KINDS_OF,
  notificationLink,
  notificationTitle,
  type Notification,
  type NotificationKind,
  type Role,
} from '@careloop/shared-contracts';
import {
  useMarkNotificationsRead,
  useMfaGate,
  useNotificationPreferences,
  useNotifications,
  useSetNotificationPreferences,
  useUnreadNotifications,
} from '@careloop/shared-auth';
import { Banner, Button, ButtonLink, Card, EmptyState, Heading, Page, Row } from './components';
import { NewerOlder } from './NewerOlder';
import { ClinicTimeZoneNote, useClinicTime } from './dates';
import { formatBirthDate } from './PatientIdentity';
import { theme } from './theme';

/** Text for screen readers only, beside what the eye sees. */
const Hidden = styled.span`
  position: absolute;
  width: 1px;
  height: 1px;
  margin: -1px;
  padding: 0;
  overflow: hidden;
  clip: rect(0 0 0 0);
  white-space: nowrap;
  border: 0;
`;

const BadgeLink = styled(Link)`
  position: relative;
  display: inline-flex;
  align-items: center;
  gap: 0.3rem;
  padding: 0.35rem 0.5rem;
  border-radius: 8px;
  color: ${theme.color.text};
  text-decoration: none;
  &:hover {
    background: ${theme.color.primarySoft};
    color: ${theme.color.primaryDark};
  }
`;
const Count = styled.span`
  min-width: 1.4rem;
  padding: 0 0.35rem;
  border-radius: 999px;
  background: ${theme.color.danger};
  color: #fff;
  font-size: 0.8rem;
  font-weight: 700;
  line-height: 1.4rem;
  text-align: center;
`;

function BellIcon() {
  return (
    <svg width="22" height="22" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <path
        fill="currentColor"
        d="M12 22a2.5 2.5 0 0 0 2.45-2h-4.9A2.5 2.5 0 0 0 12 22Zm7-6V11a7 7 0 0 0-5.5-6.84V3.5a1.5 1.5 0 0 0-3 0v.66A7 7 0 0 0 5 11v5l-2 2v1h18v-1l-2-2Z"
      />
    </svg>
  );
}

/**
 * The bell in the top bar of a signed-in account: a link to its notifications, with the unread
 * count, read again at every move to another page and every return to the tab (never on a timer:
 * the api's idle limit must still end a session nobody uses). Named "Notifications, 2 unread".
 */
export function NotificationBadge({ role }: { role: Role }) {
  // an account that must first turn two-factor on reaches nothing else: no count to ask for
  const mfaRequired = useMfaGate((s) => s.required);
  const { data, refetch } = useUnreadNotifications(role, !mfaRequired);
  const { pathname } = useLocation();
  const shownAt = useRef(pathname);
  useEffect(() => {
    if (pathname === shownAt.current || mfaRequired) return;
    shownAt.current = pathname;
    void refetch();
  }, [pathname, mfaRequired, refetch]);
  if (mfaRequired) return null;
  const unread = data?.unread ?? 0;
  return (
    <BadgeLink to={`/${role}/notifications`} data-testid="notification-badge">
      <BellIcon />
      <Hidden>{unread > 0 ? `Notifications, ${unread} unread` : 'Notifications'}</Hidden>
      {unread > 0 && <Count aria-hidden="true">{unread > 99 ? '99+' : unread}</Count>}
    </BadgeLink>
  );
}

const Items = styled.ul`
  list-style: none;
  margin: 0;
  padding: 0;
`;
const Item = styled.li<{ $unread: boolean }>`
  border-top: 1px solid ${theme.color.border};
  padding: 0.75rem 0 0.75rem 0.75rem;
  border-left: 4px solid ${({ $unread }) => ($unread ? theme.color.primary : 'transparent')};
  overflow-wrap: anywhere;
  small {
    color: ${theme.color.muted};
  }
`;
const Tag = styled.span`
  margin-left: 0.5rem;
  padding: 0 0.4rem;
  border-radius: 6px;
  background: ${theme.color.primarySoft};
  color: ${theme.color.primaryDark};
  font-size: 0.8rem;
  font-weight: 700;
`;

/** What a doctor already knew of the patient it names, so two patients of one name are told apart. */
function PersonDetail({ n, role }: { n: Notification; role: Role }) {
  if (role !== 'doctor' || !n.person.name) return null;
  return (
    <div>
      <small>
        {n.person.DOB ? `Born ${formatBirthDate(n.person.DOB)} · ` : ''}
        {n.person.email}
      </small>
    </div>
  );
}

/** A line under some notifications saying what it means for the reader. */
const MEANING: Partial<Record<NotificationKind, string>> = {
  'access-ended': "You can no longer see this patient's records. Anything you scheduled for them was cancelled.",
  'request-declined': 'You can send a new request later if you need to.',
};

/**
 * /{role}/notifications: what happened that concerns the account, newest first. Opening one marks
 * it read; "Mark as read" and "Mark all as read" do so without leaving.
 */
export function NotificationsView({ role }: { role: Role }) {
  const [page, setPage] = useState(1);
  const { data, isError } = useNotifications(role, page);
  const mark = useMarkNotificationsRead(role);
  const { format: formatDateTime } = useClinicTime();
  const pages = data ? Math.max(1, Math.ceil(data.total / data.limit)) : 1;
  return (
    <Page>
      <Heading>Notifications</Heading>
      <p>
        CareLoop tells you here when something happens that concerns you
        {role === 'patient'
          ? ': a doctor asks to connect or answers your request, or adds a record or prescription for you.'
          : ': a patient asks to connect or answers your request, or ends your access to their records.'}
      </p>
      <ClinicTimeZoneNote />
      {isError && <Banner tone="error">Could not load your notifications. Please try again.</Banner>}
      {mark.isError && <Banner tone="error">Could not mark that as read. Please try again.</Banner>}
      <Row style={{ justifyContent: 'space-between', marginBottom: '0.75rem' }}>
        <span role="status">{data && (data.unread === 0 ? 'You have read everything.' : `${data.unread} unread`)}</span>
        <Row>
          <ButtonLink to={`/${role}/notifications/settings`} $variant="secondary">
            E-mail settings
          </ButtonLink>
          <Button
            type="button"
            disabled={!data || data.unread === 0 || mark.isPending}
            aria-busy={mark.isPending}
            onClick={() => mark.mutate('all')}
          >
            Mark all as read
          </Button>
        </Row>
      </Row>
      <Card>
        {data?.items.length === 0 && <EmptyState>Nothing yet. We will let you know here when something happens.</EmptyState>}
        {data && data.items.length > 0 && (
          <Items aria-label="Notifications">
            {data.items.map((n) => {
              const title = notificationTitle(n, role);
              const link = notificationLink(n, role);
              return (
                <Item key={n._id} $unread={!n.read} aria-label={n.read ? title : `Unread: ${title}`}>
                  <div>
                    {link ? (
                      <Link to={link} onClick={() => !n.read && mark.mutate(n._id)} style={{ fontWeight: n.read ? 400 : 700 }}>
                        {title}
                      </Link>
                    ) : (
                      <span style={{ fontWeight: n.read ? 400 : 700 }}>{title}</span>
                    )}
                    {!n.read && <Tag>New</Tag>}
                  </div>
                  <PersonDetail n={n} role={role} />
                  {MEANING[n.kind] && (
                    <div>
                      <small>{MEANING[n.kind]}</small>
                    </div>
                  )}
                  <Row style={{ justifyContent: 'space-between', marginTop: '0.25rem' }}>
                    <small>{formatDateTime(n.createdAt)}</small>
                    {!n.read && (
                      <Button
                        type="button"
                        $variant="secondary"
                        style={{ padding: '0.3rem 0.8rem' }}
                        disabled={mark.isPending}
                        aria-label={`Mark as read: ${title}`}
                        onClick={() => mark.mutate(n._id)}
                      >
                        Mark as read
                      </Button>
                    )}
                  </Row>
                </Item>
              );
            })}
          </Items>
        )}
        <NewerOlder page={page} pages={pages} setPage={setPage} />
      </Card>
    </Page>
  );
}

/** Each kind as the settings page names it, for the role that receives it. */
export const NOTIFICATION_KIND_LABELS: Record<Role, Partial<Record<NotificationKind, string>>> = {
  patient: {
    'request-received': 'A doctor asks to connect with you',
    'request-accepted': 'A doctor accepts your connection request',
    'request-declined': 'A doctor declines your connection request',
    'new-record': 'A doctor adds a medical record for you',
    'new-prescription': 'A doctor adds a prescription for you',
  },
  doctor: {
    'request-received': 'A patient asks to connect with you',
    'request-accepted': 'A patient accepts your connection request',
    'request-declined': 'A patient declines your connection request',
    'access-ended': 'A patient ends your access to their records',
  },
};

/**
 * /{role}/notifications/settings: per kind, whether it is also e-mailed. The inbox always shows
 * every notification; e-mails say only that something happened, never medical details.
 */
export function NotificationSettingsView({ role }: { role: Role }) {
  const { data, isError } = useNotificationPreferences(role);
  const save = useSetNotificationPreferences(role);
  const [chosen, setChosen] = useState<Partial<Record<NotificationKind, boolean>>>({});
  const [saved, setSaved] = useState(false);
  useEffect(() => {
    if (data) setChosen(Object.fromEntries(data.preferences.map((p) => [p.kind, p.email])));
  }, [data]);
  // "Saved" goes after a few seconds, or at the next change
  useEffect(() => {
    if (!saved) return;
    const timer = setTimeout(() => setSaved(false), 5000);
    return () => clearTimeout(timer);
  }, [saved]);

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    setSaved(false);
    const preferences = NOTIFICATION_KINDS_OF[role].map((kind) => ({ kind, email: chosen[kind] ?? true }));
    save.mutate(preferences, { onSuccess: () => setSaved(true) });
  };

  return (
    <Page>
      <Heading>Notification settings</Heading>
      <p>
        Every notification appears in your CareLoop inbox. Choose which ones are also sent to you by e-mail. An e-mail only says
        that something happened and asks you to sign in: it never contains medical details.
      </p>
      {isError && <Banner tone="error">Could not load your settings. Please try again.</Banner>}
      <Card>
        {data && (
          <form onSubmit={onSubmit} aria-busy={save.isPending}>
            <fieldset style={{ border: 0, margin: 0, padding: 0 }}>
              <legend style={{ fontWeight: 700, marginBottom: '0.5rem' }}>E-mail me when</legend>
              {NOTIFICATION_KINDS_OF[role].map((kind) => (
                <div key={kind} style={{ padding: '0.4rem 0' }}>
                  <label style={{ display: 'inline-flex', gap: '0.5rem', alignItems: 'center' }}>
                    <input
                      type="checkbox"
                      checked={chosen[kind] ?? true}
                      onChange={(e) => {
                        setSaved(false);
                        setChosen({ ...chosen, [kind]: e.target.checked });
                      }}
                    />
                    {NOTIFICATION_KIND_LABELS[role][kind]}
                  </label>
                </div>
              ))}
            </fieldset>
            <Row style={{ marginTop: '1rem' }}>
              <Button type="submit" busy={save.isPending}>
                {save.isPending ? 'Saving…' : 'Save'}
              </Button>
              <ButtonLink to={`/${role}/notifications`} $variant="secondary">
                Back to notifications
              </ButtonLink>
            </Row>
            <div role="status" style={{ minHeight: '1.5rem', marginTop: '0.5rem', color: theme.color.success, fontWeight: 600 }}>
              {saved ? 'Saved. Your e-mail choices are up to date.' : ''}
            </div>
            {save.isError && <Banner tone="error">Could not save your choices. Please try again.</Banner>}
          </form>
        )}
      </Card>
    </Page>
  );
}
