import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from '@careloop/shared-router';
import type { AllergyIntolerance } from '@careloop/shared-contracts';
import { configureApi, createQueryClient, useSession } from '@careloop/shared-auth';
import { startFakeApi, type Recorded } from '../../test-support/fake-api';
import { patientMe } from '../../test-support/fixtures';
import { Allergies } from './Allergies';

const PATIENT = '00000000-0000-4000-8000-00000000000a';
const CONFIRMED_ID = '5a1c1e4e-8a4b-4f0e-9a39-2f1f5e1c0a44';

const confirmed: AllergyIntolerance = {
  _id: CONFIRMED_ID,
  patientId: PATIENT,
  substance: { text: 'Penicillin', code: 'class:penicillins' },
  type: 'allergy',
  category: 'medication',
  criticality: 'high',
  reactions: [{ manifestation: 'Anaphylaxis', severity: 'severe' }],
  clinicalStatus: 'active',
  verificationStatus: 'confirmed',
  source: 'structured',
  recordedBy: { role: 'doctor', name: 'Dr. Lee' },
  recordedAt: '2026-11-20T10:00:00.000Z',
};
const refuted: AllergyIntolerance = {
  ...confirmed,
  _id: '5a1c1e4e-8a4b-4f0e-9a39-2f1f5e1c0a45',
  substance: { text: 'Sulfa drugs' },
  reactions: [],
  verificationStatus: 'refuted',
  sourceText: 'sulfa drugs',
};
const fromNote: AllergyIntolerance = {
  patientId: PATIENT,
  substance: { text: 'Codeine', code: 'codeine' },
  type: 'intolerance',
  category: 'medication',
  criticality: 'unable-to-assess',
  reactions: [{ manifestation: 'vomiting' }],
  clinicalStatus: 'active',
  verificationStatus: 'unconfirmed',
  source: 'record',
  sourceText: 'Codeine - vomiting',
  recordedBy: { role: 'doctor', name: 'Dr. Lee' },
  recordedAt: '2026-11-19T10:00:00.000Z',
};

const written = (req: Recorded) => ({ status: 201, body: { ...confirmed, ...(req.body as object), source: 'structured' } });

const NOTE = { source: 'record' as const, recordedBy: 'Dr. Lee', recordedAt: '2026-11-19T10:00:00.000Z' };
let listBody: { items: AllergyIntolerance[]; notes: (typeof NOTE & { text: string })[] };
let fake: Awaited<ReturnType<typeof startFakeApi>>;
beforeAll(async () => {
  fake = await startFakeApi({
    'GET /patient/me': { status: 200, body: patientMe({ _id: PATIENT }) },
    [`GET /allergies/${PATIENT}`]: () => ({ status: 200, body: listBody }),
    [`POST /allergies/${PATIENT}`]: written,
    [`PUT /allergy/${CONFIRMED_ID}`]: (req) => ({ status: 200, body: { ...confirmed, ...(req.body as object) } }),
    'POST /patient/allergies': written,
    'GET /allergy-substances': {
      status: 200,
      body: { items: [{ code: 'class:penicillins', name: 'penicillins', matched: 'penicillin', kind: 'class' }] },
    },
  });
  configureApi(fake.url);
});
afterAll(() => fake.close());
beforeEach(() => {
  fake.requests.length = 0;
  listBody = { items: [confirmed, refuted, fromNote], notes: [{ ...NOTE, text: 'Codeine - vomiting' }] };
});

const renderView = (view: React.ReactNode) =>
  render(
    <QueryClientProvider client={createQueryClient()}>
      <MemoryRouter>{view}</MemoryRouter>
    </QueryClientProvider>,
  );
const entry = async (text: string) => within((await screen.findByText(text)).closest('li') as HTMLElement);
const sent = (method: string, path: string) => fake.requests.filter((r) => r.method === method && r.path === path);

describe('doctor', () => {
  beforeEach(() => useSession.getState().login('t', 'doctor'));

  test('every entry with its status in words; a free-text entry says where it was written and that it is unreviewed', async () => {
    renderView(<Allergies role="doctor" patientId={PATIENT} />);
    const penicillin = await entry('Penicillin');
    expect(penicillin.getByText('confirmed')).toBeInTheDocument();
    expect(penicillin.getByText(/Anaphylaxis \(severe\)/)).toBeInTheDocument();
    expect(penicillin.queryByRole('button', { name: 'Confirm' })).not.toBeInTheDocument();
    const sulfa = await entry('Sulfa drugs');
    expect(sulfa.getByText('refuted')).toBeInTheDocument();
    expect(sulfa.getByText('(uncoded)')).toBeInTheDocument();
    expect(sulfa.queryByRole('button', { name: 'Refute (delabel)' })).not.toBeInTheDocument();
    expect(sulfa.getByText(/reviews the note “sulfa drugs”/)).toBeInTheDocument();
    const codeine = await entry('Codeine');
    expect(codeine.getByText('unconfirmed')).toBeInTheDocument();
    expect(
      codeine.getByText(/a medical record by Dr. Lee on 19 Nov 2026: “Codeine - vomiting” — not yet reviewed/),
    ).toBeInTheDocument();
  });

  /** Refute asks why; nothing is sent until a reason is given. */
  async function refute(name: string, reason: string) {
    fireEvent.click((await entry(name)).getByRole('button', { name: 'Refute (delabel)' }));
    const form = within(screen.getByRole('form', { name: `Refute ${name}` }));
    expect(form.getByRole('button', { name: 'Refute' })).toBeDisabled();
    fireEvent.change(form.getByLabelText('Why is it refuted?'), { target: { value: reason } });
    fireEvent.click(form.getByRole('button', { name: 'Refute' }));
  }

  test('refuting a free-text entry, with its reason, creates the structured entry that reviews its note', async () => {
    renderView(<Allergies role="doctor" patientId={PATIENT} />);
    await refute('Codeine', 'Took codeine since without vomiting');
    await waitFor(() => expect(sent('POST', `/allergies/${PATIENT}`)).toHaveLength(1));
    expect(sent('POST', `/allergies/${PATIENT}`)[0].body).toEqual({
      substance: { text: 'Codeine' },
      type: 'intolerance',
      category: 'medication',
      criticality: 'unable-to-assess',
      reactions: [{ manifestation: 'vomiting' }],
      clinicalStatus: 'active',
      verificationStatus: 'refuted',
      statusReason: 'Took codeine since without vomiting',
      reviews: 'Codeine - vomiting',
    });
  });

  test('refuting a structured entry updates it with the reason; the list is read again', async () => {
    renderView(<Allergies role="doctor" patientId={PATIENT} />);
    await refute('Penicillin', 'Negative oral challenge 2026');
    await waitFor(() => expect(sent('PUT', `/allergy/${CONFIRMED_ID}`)).toHaveLength(1));
    expect(sent('PUT', `/allergy/${CONFIRMED_ID}`)[0].body).toMatchObject({
      verificationStatus: 'refuted',
      statusReason: 'Negative oral challenge 2026',
    });
    await waitFor(() => expect(sent('GET', `/allergies/${PATIENT}`).length).toBeGreaterThanOrEqual(2));
  });

  test('adding: the substance is required; a reaction with its severity is sent', async () => {
    renderView(<Allergies role="doctor" patientId={PATIENT} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Add an allergy' }));
    const form = within(screen.getByRole('form', { name: 'Add an allergy' }));
    fireEvent.click(form.getByRole('button', { name: 'Save allergy' }));
    expect(await form.findByText('Required')).toBeInTheDocument();
    expect(form.getByLabelText('Substance')).toHaveAttribute('aria-invalid', 'true');
    expect(sent('POST', `/allergies/${PATIENT}`)).toHaveLength(0);

    // the vocabulary's names are offered as one types
    fireEvent.change(form.getByLabelText('Substance'), { target: { value: 'penic' } });
    const listId = form.getByLabelText('Substance').getAttribute('list')!;
    await waitFor(() => expect(document.getElementById(listId)?.querySelector('option[value="penicillins"]')).not.toBeNull());
    expect(sent('GET', '/allergy-substances?q=penic&limit=8')).toHaveLength(1);
    fireEvent.change(form.getByLabelText('Substance'), { target: { value: 'Amoxicillin' } });
    fireEvent.change(form.getByLabelText('Criticality'), { target: { value: 'high' } });
    fireEvent.click(form.getByRole('button', { name: 'Add a reaction' }));
    fireEvent.change(form.getByLabelText('Manifestation'), { target: { value: 'Anaphylaxis' } });
    fireEvent.change(form.getByLabelText('Severity'), { target: { value: 'severe' } });
    fireEvent.click(form.getByRole('button', { name: 'Save allergy' }));
    await waitFor(() => expect(sent('POST', `/allergies/${PATIENT}`)).toHaveLength(1));
    expect(sent('POST', `/allergies/${PATIENT}`)[0].body).toEqual({
      substance: { text: 'Amoxicillin' },
      type: 'allergy',
      category: 'medication',
      criticality: 'high',
      reactions: [{ manifestation: 'Anaphylaxis', severity: 'severe' }],
      clinicalStatus: 'active',
      verificationStatus: 'confirmed',
    });
    await waitFor(() => expect(screen.queryByRole('form', { name: 'Add an allergy' })).not.toBeInTheDocument());
  });

  test('the list of every patient shows no allergy list', () => {
    const { container } = renderView(<Allergies role="doctor" />);
    expect(container).toBeEmptyDOMElement();
  });
});

describe('patient', () => {
  beforeEach(() => useSession.getState().login('t', 'patient'));

  test('sees every entry with its status in words, and cannot confirm or refute', async () => {
    renderView(<Allergies role="patient" />);
    expect((await entry('Penicillin')).getByText('confirmed')).toBeInTheDocument();
    expect((await entry('Sulfa drugs')).getByText('refuted')).toBeInTheDocument();
    expect((await entry('Codeine')).getByText('unconfirmed')).toBeInTheDocument();
    for (const name of ['Confirm', 'Edit', 'Refute (delabel)', 'Add an allergy'])
      expect(screen.queryByRole('button', { name })).not.toBeInTheDocument();
  });

  test('reports an allergy: no verification status to choose, sent unconfirmed', async () => {
    renderView(<Allergies role="patient" />);
    fireEvent.click(await screen.findByRole('button', { name: 'Report an allergy' }));
    const form = within(screen.getByRole('form', { name: 'Report an allergy' }));
    expect(form.queryByLabelText('Verification status')).not.toBeInTheDocument();
    fireEvent.change(form.getByLabelText('Substance'), { target: { value: 'Peanuts' } });
    fireEvent.change(form.getByLabelText('Category'), { target: { value: 'food' } });
    fireEvent.click(form.getByRole('button', { name: 'Send report' }));
    await waitFor(() => expect(sent('POST', '/patient/allergies')).toHaveLength(1));
    expect(sent('POST', '/patient/allergies')[0].body).toMatchObject({
      substance: { text: 'Peanuts' },
      category: 'food',
      verificationStatus: 'unconfirmed',
    });
    expect(await screen.findByText('Reported. It stays unconfirmed until your doctor reviews it.')).toBeInTheDocument();
  });
});

describe('never "No allergy recorded" while a note exists', () => {
  test.each(['doctor', 'patient'] as const)('%s: a note with no readable substance is shown verbatim instead', async (role) => {
    useSession.getState().login('t', role);
    listBody = { items: [], notes: [{ ...NOTE, text: 'NKDA? see GP letter' }] };
    renderView(<Allergies role={role} patientId={PATIENT} />);
    const notes = await screen.findByRole('region', { name: 'Allergy notes as written' });
    expect(notes).toHaveTextContent('“NKDA? see GP letter” — a medical record, Dr. Lee, 19 Nov 2026');
    expect(screen.queryByText('No allergy recorded')).not.toBeInTheDocument();
  });

  test('with no entry and no note at all, it says so', async () => {
    useSession.getState().login('t', 'doctor');
    listBody = { items: [], notes: [] };
    renderView(<Allergies role="doctor" patientId={PATIENT} />);
    expect(await screen.findByText('No allergy recorded')).toBeInTheDocument();
  });

  test('an entry the wording puts in doubt is shown for review, and still counts', async () => {
    useSession.getState().login('t', 'patient');
    const doubtful = {
      ...fromNote,
      substance: { text: 'cefuroxime', code: 'cefuroxime' },
      review: 'the note says “negative challenge to cefuroxime”',
    };
    listBody = { items: [doubtful], notes: [{ ...NOTE, text: 'Penicillin (anaphylaxis). Negative challenge to cefuroxime' }] };
    renderView(<Allergies role="patient" />);
    expect(await screen.findByText(/Unconfirmed — review: the note says “negative challenge to cefuroxime”/)).toHaveTextContent(
      'It is checked as an allergy until a doctor resolves it.',
    );
  });
});
