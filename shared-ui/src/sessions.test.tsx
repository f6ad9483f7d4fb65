import { fireEvent, render, screen, within } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import type { SessionInfo } from '@careloop/shared-contracts';
import { configureApi, createQueryClient, useSession } from '@careloop/shared-auth';
import { startFakeApi } from '../../test-support/fake-api';
import { SessionsView } from './Sessions';

const session = (id: string, device: string, current: boolean): SessionInfo => ({
  id,
  device,
  ip: '203.0.113.7',
  startedAt: '2026-11-21T08:00:00.000Z',
  lastSeenAt: '2026-11-21T09:00:00.000Z',
  current,
});
const HERE = session('0b7f3c1e-1111-4f0e-9a39-2f1f5e1c0a44', 'Chrome 131 on Linux', true);
const PHONE = session('0b7f3c1e-2222-4f0e-9a39-2f1f5e1c0a44', 'Safari 18 on iOS 18.1', false);
const TABLET = session('0b7f3c1e-3333-4f0e-9a39-2f1f5e1c0a44', 'Firefox 133 on Android 14', false);

let live = [HERE, PHONE, TABLET];
let fake: Awaited<ReturnType<typeof startFakeApi>>;
beforeAll(async () => {
  fake = await startFakeApi({
    'GET /doctor/sessions': () => ({ status: 200, body: { sessions: live } }),
    [`DELETE /doctor/sessions/${PHONE.id}`]: () => {
      live = live.filter((s) => s.id !== PHONE.id);
      return { status: 200, body: { ended: 1 } };
    },
    'POST /doctor/sessions/end-others': () => {
      const ended = live.length - 1;
      live = [HERE];
      return { status: 200, body: { ended } };
    },
  });
  configureApi(fake.url);
});
afterAll(() => fake.close());

test('lists the sessions with this device marked; ends one, then all the others, reading the list again each time', async () => {
  useSession.getState().login('t', 'doctor');
  render(
    <QueryClientProvider client={createQueryClient()}>
      <SessionsView role="doctor" />
    </QueryClientProvider>,
  );
  const list = await screen.findByRole('list', { name: 'Sessions' });
  expect(within(list).getAllByRole('listitem')).toHaveLength(3);
  const here = within(list).getByRole('listitem', { name: HERE.device });
  expect(here).toHaveTextContent('This device');
  expect(here).toHaveTextContent('From 203.0.113.7');
  expect(within(here).queryByRole('button')).not.toBeInTheDocument();

  fireEvent.click(screen.getByRole('button', { name: `Sign out ${PHONE.device}` }));
  expect(await screen.findByRole('button', { name: `Sign out ${TABLET.device}` })).toBeInTheDocument();
  await screen.findByText((_, el) => el?.tagName === 'UL' && el.querySelectorAll('li').length === 2);
  expect(screen.queryByText(PHONE.device)).not.toBeInTheDocument();

  fireEvent.click(screen.getByRole('button', { name: 'Sign out all other sessions' }));
  await screen.findByText((_, el) => el?.tagName === 'UL' && el.querySelectorAll('li').length === 1);
  expect(screen.queryByRole('button', { name: 'Sign out all other sessions' })).not.toBeInTheDocument();
  expect(fake.requests.map((r) => `${r.method} ${r.path}`).filter((r) => r.includes('/sessions'))).toEqual([
    'GET /doctor/sessions',
    `DELETE /doctor/sessions/${PHONE.id}`,
    'GET /doctor/sessions',
    'POST /doctor/sessions/end-others',
    'GET /doctor/sessions',
  ]);
});
