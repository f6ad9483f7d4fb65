import { setImmediate as nextTurn } from 'node:timers';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { MemoryRouter } from '@careloop/shared-router';
import { DRAFT_CHANGED, type Draft } from '@careloop/shared-contracts';
import { configureApi, createQueryClient, useSession } from '@careloop/shared-auth';
import { startFakeApi, type Recorded } from '../../test-support/fake-api';
import { DRAFT_SAVE_DELAY_MS, RESUME_DRAFT, useFormDraft } from './useFormDraft';

const PATIENT = '5a1c1e4e-8a4b-4f0e-9a39-2f1f5e1c0a44';
const PATH = `/doctor/drafts/prescription/${PATIENT}`;

let onFile: Draft | null;
let saveStatus: number;
let fake: Awaited<ReturnType<typeof startFakeApi>>;
beforeAll(async () => {
  fake = await startFakeApi({
    [`GET ${PATH}`]: () => ({ status: 200, body: { draft: onFile } }),
    [`PUT ${PATH}`]: () =>
      saveStatus === 200
        ? { status: 200, body: { savedAt: '2026-11-27T19:30:00.000Z' } }
        : {
            status: saveStatus,
            body: { error: saveStatus === 409 ? DRAFT_CHANGED : "You no longer have access to this patient's records" },
          },
    [`DELETE ${PATH}`]: { status: 204 },
    'GET /doctor/drafts': { status: 200, body: { drafts: [] } },
    'GET /clinic': { status: 200, body: { timeZone: 'Europe/London' } },
  });
  configureApi(fake.url);
});
afterAll(() => fake.close());
let fetchSpy: jest.SpiedFunction<typeof fetch>;
beforeEach(() => {
  onFile = null;
  saveStatus = 200;
  fake.requests.length = 0;
  useSession.getState().login('token', 'doctor');
  // Timers are ours to move: a save is due DRAFT_SAVE_DELAY_MS after typing stops (the network stays real).
  jest.useFakeTimers({ doNotFake: ['nextTick', 'queueMicrotask'] });
  fetchSpy = jest.spyOn(globalThis, 'fetch');
});
afterEach(() => {
  jest.useRealTimers();
  fetchSpy.mockRestore();
});

/** Saves the client has started (counted as they leave, so "none" is known without waiting for the network). */
const savesStarted = () => fetchSpy.mock.calls.filter(([request]) => (request as Request).method === 'PUT').length;
/** Every answer the client asked for has arrived and been handled (the draft on file is known). */
const settle = async () => {
  await waitFor(() => expect(fake.requests.some((r) => r.method === 'GET' && r.path === PATH)).toBe(true));
  await act(async () => {
    await Promise.allSettled(fetchSpy.mock.results.map((r) => r.value as Promise<unknown>));
    for (let i = 0; i < 5; i++) await new Promise((resolve) => nextTurn(resolve));
  });
};
/** Typing pauses long enough for any due save to start. */
const pause = () => act(async () => void jest.advanceTimersByTime(DRAFT_SAVE_DELAY_MS * 2));

/** A draft on file of "Aspirin", saved at 17:30 on 27 Nov 2026, left at `step`. */
const aspirinDraft = (step: number): Draft => ({
  form: 'prescription',
  patientId: PATIENT,
  step,
  savedAt: '2026-11-27T17:30:00.000Z',
  values: { prescribedDrug: 'Aspirin' },
});

const saves = () => fake.requests.filter((r) => r.method === 'PUT');
const discards = () => fake.requests.filter((r) => r.method === 'DELETE');

function DrugForm({ ready = true, step, onStep }: { ready?: boolean; step?: number; onStep?(s: number): void }) {
  const form = useForm({ defaultValues: { prescribedDrug: '', dosage: '1 g' } });
  const { restorePrompt, draftStatus, clearDraft } = useFormDraft(form, {
    form: 'prescription',
    patientId: PATIENT,
    ready,
    step,
    onStepRestored: onStep,
  });
  return (
    <form>
      {restorePrompt}
      <label>
        Drug
        <input {...form.register('prescribedDrug')} />
      </label>
      <label>
        Dosage
        <input {...form.register('dosage')} />
      </label>
      <button type="button" onClick={() => form.setValue('prescribedDrug', 'filled by the page')}>
        Fill
      </button>
      <button type="button" onClick={clearDraft}>
        Sent
      </button>
      {draftStatus}
    </form>
  );
}

function renderForm(ui: React.ReactElement, state?: unknown) {
  return render(
    <QueryClientProvider client={createQueryClient()}>
      <MemoryRouter initialEntries={[{ pathname: '/create-prescription', state }]}>{ui}</MemoryRouter>
    </QueryClientProvider>,
  );
}

const type = (label: string, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });
const bodyOf = (r: Recorded) => r.body as { values: Record<string, unknown>; step: number; basedOn?: string | null };

test('typing is saved after a pause, once for a burst, with the step; nothing for an untouched form or a value the page filled', async () => {
  renderForm(<DrugForm step={0} />);
  await settle();
  fireEvent.click(screen.getByRole('button', { name: 'Fill' }));
  await pause();
  expect(savesStarted()).toBe(0);

  await act(async () => {
    type('Drug', 'Amox');
    jest.advanceTimersByTime(DRAFT_SAVE_DELAY_MS / 2);
    type('Drug', 'Amoxicillin');
    jest.advanceTimersByTime(DRAFT_SAVE_DELAY_MS - 1);
  });
  expect(savesStarted()).toBe(0);
  await act(async () => void jest.advanceTimersByTime(1));
  expect(savesStarted()).toBe(1);
  await waitFor(() => expect(saves()).toHaveLength(1));
  // based on no draft (none was on file): one saved meanwhile elsewhere is not replaced unseen
  expect(bodyOf(saves()[0])).toEqual({ values: { prescribedDrug: 'Amoxicillin', dosage: '1 g' }, step: 0, basedOn: null });
  expect(await screen.findByText('Draft saved 27 Nov 2026, 19:30')).toBeTruthy();
  await pause();
  expect(savesStarted()).toBe(1);
});

test('what is typed before the draft on file is known is saved as soon as it is known to be none', async () => {
  const { rerender } = renderForm(<DrugForm ready={false} />);
  type('Drug', 'Warfarin');
  expect(fake.requests).toHaveLength(0);
  rerender(
    <QueryClientProvider client={createQueryClient()}>
      <MemoryRouter>
        <DrugForm />
      </MemoryRouter>
    </QueryClientProvider>,
  );
  await waitFor(() => expect(saves()).toHaveLength(1));
  expect(bodyOf(saves()[0]).values.prescribedDrug).toBe('Warfarin');
});

test('a draft on file is offered, not overwritten until answered; Restore brings its values and step back', async () => {
  onFile = aspirinDraft(3);
  const onStep = jest.fn();
  renderForm(<DrugForm onStep={onStep} />);
  expect(await screen.findByText('Restore your unsaved draft from 27 Nov 2026, 17:30?')).toBeTruthy();
  type('Drug', 'Ibuprofen');
  await pause();
  expect(savesStarted()).toBe(0);
  fireEvent.click(screen.getByRole('button', { name: 'Restore' }));
  expect((screen.getByLabelText('Drug') as HTMLInputElement).value).toBe('Aspirin');
  // a field the draft did not hold keeps its default
  expect((screen.getByLabelText('Dosage') as HTMLInputElement).value).toBe('1 g');
  expect(onStep).toHaveBeenCalledWith(3);
  type('Drug', 'Aspirin 75');
  await waitFor(() => expect(saves()).toHaveLength(1));
  // it replaces the draft it restored, and only that one
  expect(bodyOf(saves()[0]).basedOn).toBe('2026-11-27T17:30:00.000Z');
});

test('Discard drops the draft on file', async () => {
  onFile = aspirinDraft(0);
  renderForm(<DrugForm />);
  fireEvent.click(await screen.findByRole('button', { name: 'Discard' }));
  await waitFor(() => expect(discards()).toHaveLength(1));
  expect(saves()).toHaveLength(0);
  expect((screen.getByLabelText('Drug') as HTMLInputElement).value).toBe('');
});

test('Discard after typing: what was typed meanwhile becomes the draft', async () => {
  onFile = aspirinDraft(0);
  renderForm(<DrugForm />);
  const discard = await screen.findByRole('button', { name: 'Discard' });
  type('Drug', 'Ibuprofen');
  fireEvent.click(discard);
  await waitFor(() => expect(saves()).toHaveLength(1));
  expect(bodyOf(saves()[0]).values.prescribedDrug).toBe('Ibuprofen');
});

test('opened to resume (the notice after sign-in): restored at once, at its step, nothing asked', async () => {
  onFile = aspirinDraft(4);
  const onStep = jest.fn();
  renderForm(<DrugForm onStep={onStep} />, RESUME_DRAFT);
  await waitFor(() => expect((screen.getByLabelText('Drug') as HTMLInputElement).value).toBe('Aspirin'));
  expect(onStep).toHaveBeenCalledWith(4);
  expect(screen.queryByText(/Restore your unsaved draft/)).toBeNull();
});

test('sent: no save still on its way brings the draft back — the pending one is dropped and the draft deleted after', async () => {
  renderForm(<DrugForm />);
  await settle();
  type('Drug', 'Amoxicillin');
  fireEvent.click(screen.getByRole('button', { name: 'Sent' }));
  await waitFor(() => expect(discards()).toHaveLength(1));
  await pause();
  expect(savesStarted()).toBe(0);
});

test('sent before the draft on file was known: nothing is saved when it arrives', async () => {
  renderForm(<DrugForm />);
  type('Drug', 'Amoxicillin');
  fireEvent.click(screen.getByRole('button', { name: 'Sent' }));
  await settle();
  await pause();
  expect(savesStarted()).toBe(0);
});

test('leaving the form sends what the pause had not sent yet', async () => {
  const view = renderForm(<DrugForm />);
  await settle();
  type('Drug', 'Metformin');
  view.unmount();
  await waitFor(() => expect(saves()).toHaveLength(1));
  expect(bodyOf(saves()[0]).values.prescribedDrug).toBe('Metformin');
});

test('a refused save says so instead of failing silently, and stops saving', async () => {
  saveStatus = 403;
  renderForm(<DrugForm />);
  await settle();
  type('Drug', 'Metformin');
  expect(await screen.findByText('This draft can no longer be saved: you no longer have access to this patient.')).toBeTruthy();
  type('Drug', 'Metformin 500');
  await pause();
  expect(savesStarted()).toBe(1);
});

test('a draft saved meanwhile in another tab is not replaced unseen: the page says so, and keeps its version only when asked', async () => {
  saveStatus = 409;
  renderForm(<DrugForm />);
  await settle();
  type('Drug', 'Metformin');
  expect(
    await screen.findByText(/This draft was changed in another tab or on another device since this page opened it/),
  ).toBeTruthy();
  type('Drug', 'Metformin 500');
  await pause();
  expect(savesStarted()).toBe(1);
  saveStatus = 200;
  fireEvent.click(screen.getByRole('button', { name: "Keep this page's version" }));
  await waitFor(() => expect(saves()).toHaveLength(2));
  // this page's version, whatever is on file
  expect(bodyOf(saves()[1])).toEqual({ values: { prescribedDrug: 'Metformin 500', dosage: '1 g' }, step: 0 });
  expect(await screen.findByText('Draft saved 27 Nov 2026, 19:30')).toBeTruthy();
});
