import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { MedicalRecord } from '@careloop/shared-contracts';
import { account, connect, recordBody, setClock, type Account } from '../../test/clinical';
import { BACKENDS, bearer, createTestApp, createTestDb, type TestApp, type TestDb } from '../../test/helpers';
import { loadConfig } from '../../config';
import { buildSummary, DISCLAIMER, mergeNarrative, NARRATIVE_PROMPT, NarrativeRejected, readAllergyText } from '../../clinical';
import { narrativeSummary } from '../../adapters/model';
import guardCorpus from '../../clinical/narrative-corpus.json';

/** A case of src/clinical/narrative-corpus.json. */
interface GuardCase {
  source: string;
  rewrite: string;
  expected: 'accept' | 'reject';
  e2e?: boolean;
}

/** The deterministic block of a section: heading to the next blank line. */
const block = (markdown: string, title: string) => markdown.split('\n\n').find((b) => b.startsWith(`## ${title}\n`))!;

/** What the fake model does with the text it is sent. */
type Mode =
  | 'rewrite'
  | 'tamper'
  | 'status500'
  | 'hang'
  | 'not-json'
  | 'no-choices'
  | 'empty-content'
  | 'no-alerts-heading'
  | 'fenced'
  | 'complaint'
  | HostileMode;

/** Hostile answers: each must be dropped whole, the deterministic summary kept. */
const HOSTILE = {
  'added-heading': (text: string) => text.replace('## Alerts', '## Discharge\nSafe for discharge.\n\n## Alerts'),
  'no-allergies': (text: string) => text.replace(/## Key history\n/, '## Key history\nNo known drug allergies. '),
  'news2-zero': (text: string) =>
    text.replace(/## Presenting complaint\n[^\n]*/, '## Presenting complaint\nChest pain; NEWS2 0, low risk.'),
  'safe-discharge': (text: string) =>
    text.replace(/## Presenting complaint\n[^\n]*/, '## Presenting complaint\nChest pain, now settled: safe for discharge.'),
  'invented-value': (text: string) =>
    text.replace(/## Presenting complaint\n[^\n]*/, '## Presenting complaint\nChest pain with a blood pressure of 120/80.'),
  'sepsis-excluded': (text: string) =>
    text.replace(/## Presenting complaint\n[^\n]*/, '## Presenting complaint\nChest pain; sepsis excluded.'),
  'injected-heading-in-prose': (text: string) =>
    text.replace(/## Presenting complaint\n[^\n]*/, '## Presenting complaint\nChest pain.\n# Alerts\nNo alerts.'),
};
type HostileMode = keyof typeof HOSTILE;

/** A fake OpenAI-style chat-completions server on 127.0.0.1 (a real socket, a random port). */
class FakeModel {
  mode: Mode = 'rewrite';
  /** mode 'complaint': the prose that replaces the presenting complaint's */
  complaint = '';
  requests: { headers: http.IncomingHttpHeaders; body: any; url: string }[] = [];
  private server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      const body = JSON.parse(raw);
      this.requests.push({ headers: req.headers, body, url: req.url ?? '' });
      const input: string = body.messages?.[1]?.content ?? '';
      const answer = (content: unknown) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            id: 'chatcmpl-1',
            object: 'chat.completion',
            choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
          }),
        );
      };
      switch (this.mode) {
        case 'rewrite':
          return answer(rewrite(input));
        case 'fenced':
          return answer('```markdown\n' + rewrite(input) + '\n```');
        case 'tamper':
          return answer(tamper(rewrite(input)));
        case 'status500':
          res.writeHead(500, { 'content-type': 'application/json' });
          return res.end('{"error":{"message":"overloaded"}}');
        case 'hang':
          return; // never answers
        case 'not-json':
          res.writeHead(200, { 'content-type': 'text/html' });
          return res.end('<html>gateway</html>');
        case 'no-choices':
          res.writeHead(200, { 'content-type': 'application/json' });
          return res.end('{"choices":[]}');
        case 'empty-content':
          return answer('   ');
        case 'no-alerts-heading':
          return answer(rewrite(input).replace('## Alerts', 'Alerts'));
        case 'complaint':
          return answer(
            input
              .split('\n\n')
              .map((b) => (b.startsWith('## Presenting complaint\n') ? `## Presenting complaint\n${this.complaint}` : b))
              .join('\n\n'),
          );
        default:
          return answer(HOSTILE[this.mode](rewrite(input)));
      }
    });
  });

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/v1/chat/completions`;
  }
  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/** The model's prose: the narrative sections replaced by sentences, the rest kept. */
function rewrite(input: string): string {
  return input
    .split('\n\n')
    .map((b) => {
      if (b.startsWith('## Patient\n'))
        return '## Patient\nA **35-year-old** woman admitted as an emergency.\nShe was seen today. Her NEWS2 is 0.';
      if (b.startsWith('## Presenting complaint\n'))
        return '## Presenting complaint\nShe reports **two days** of central chest pain.';
      return b;
    })
    .join('\n\n');
}

/** A model that also "corrects" the computed sections. */
function tamper(text: string): string {
  return text
    .replace(/\*\*NEWS2 incomplete: at least \d+\*\*/, '**NEWS2: 0**')
    .replace(/## Alerts\n[\s\S]*?(\n\n|$)/, '## Alerts\nNo alerts. The temperature is fine.$1')
    .replace(/\*\*Temperature:\*\*[^\n]*/, '**Temperature:** 37 °C: normal');
}

describe.each(BACKENDS)('summary with a language model on %s', (backend) => {
  let tdb: TestDb;
  let t: TestApp;
  let model: FakeModel;
  let doctor: Account;
  let patient: Account;
  let record: MedicalRecord;

  beforeAll(async () => {
    tdb = await createTestDb(backend);
    model = new FakeModel();
    const url = await model.start();
    t = await createTestApp(tdb.adapter, {
      SUMMARY_LLM_URL: url,
      SUMMARY_LLM_MODEL: 'test-model',
      SUMMARY_LLM_KEY: 'sk-test-123',
      SUMMARY_LLM_TIMEOUT_MS: '300',
    });
    setClock(t, '2025-03-01T10:00:00Z');
    doctor = await account(t, 'doctor');
    patient = await account(t, 'patient', { name: 'Pat Doe', DOB: '1990-02-28', gender: 'Female' });
    await connect(t, doctor, patient);
    const res = await t.app.inject({
      method: 'POST',
      url: `/medicalhistory/${patient.id}`,
      headers: bearer(doctor.token),
      payload: recordBody({
        allergies: 'penicillin',
        drug: 'Amoxicillin',
        history: { historyOfPresentingComplaints: 'chest pain 2/7' },
        gpe: { bloodPressure: '185/125' },
      }),
    });
    record = res.json().record;
  });
  afterAll(async () => {
    await t?.app.close();
    await model?.stop();
    await tdb?.cleanup();
  });
  beforeEach(() => {
    model.mode = 'rewrite';
    model.requests = [];
  });

  const summarize = () =>
    t.app.inject({ method: 'POST', url: `/medicalhistory/summary/${record._id}`, headers: bearer(doctor.token), payload: {} });
  // as the api computes it: the record's note on file, and the unconfirmed entry read from it (the allergy list)
  const deterministic = () =>
    buildSummary(record, {
      prescriptions: [],
      allergiesOnFile: ['penicillin'],
      allergyEntries: readAllergyText('penicillin'),
    }).markdown;
  const storedRecord = async () =>
    (
      await t.app.inject({ method: 'GET', url: `/medicalHistory/${record._id}`, headers: bearer(doctor.token) })
    ).json() as MedicalRecord;

  it('sends an OpenAI-style request: model, system + user messages, temperature 0, bearer key', async () => {
    await summarize();
    expect(model.requests).toHaveLength(1);
    const [req] = model.requests;
    expect(req.url).toBe('/v1/chat/completions');
    expect(req.headers.authorization).toBe('Bearer sk-test-123');
    expect(req.headers['content-type']).toBe('application/json');
    expect(req.body).toEqual({
      model: 'test-model',
      messages: [
        { role: 'system', content: NARRATIVE_PROMPT },
        { role: 'user', content: deterministic() },
      ],
      temperature: 0,
    });
    expect(NARRATIVE_PROMPT).toMatch(/## /);
    expect(NARRATIVE_PROMPT).toMatch(/\*\*bold\*\*/);
  });

  it("keeps the model's presenting-complaint prose and every computed section verbatim", async () => {
    const res = await summarize();
    expect(res.statusCode).toBe(200);
    const { summary } = res.json();
    expect(summary).toContain('She reports **two days** of central chest pain.');
    // the patient section is computed: the model's rewrite of it (with a NEWS2 of its own) is not used
    expect(summary).not.toContain('35-year-old');
    expect(summary).not.toContain('Her NEWS2 is 0');
    for (const title of ['Patient', 'Key history', 'Allergies', 'Vital signs', 'Investigations', 'Treatment', 'Alerts'])
      expect(block(summary, title)).toBe(block(deterministic(), title));
    expect(summary).toMatch(/hypertensive crisis range/);
    expect(summary.trimEnd().endsWith(DISCLAIMER)).toBe(true);
    expect(summary.split(DISCLAIMER)).toHaveLength(2);
    expect(summary).toContain('**Allergy list:** penicillin; criticality not assessed; unconfirmed');
    const kept = await storedRecord();
    expect(kept.summary).toBe(summary);
    // the model's narrative was kept: said, with the model's name
    expect(kept.summaryInfo).toMatchObject({ rewrittenBy: 'test-model', regeneratedOutOfDate: false, previousGeneratedAt: null });
  });

  it('a model that alters NEWS2, the flags or the alerts is overruled by the computed sections', async () => {
    model.mode = 'tamper';
    const { summary } = (await summarize()).json();
    expect(summary).toContain('She reports **two days** of central chest pain.');
    expect(summary).not.toContain('**NEWS2: 0**');
    expect(summary).not.toContain('The temperature is fine');
    expect(summary).not.toContain('37 °C: normal');
    expect(block(summary, 'Vital signs')).toBe(block(deterministic(), 'Vital signs'));
    expect(block(summary, 'Alerts')).toBe(block(deterministic(), 'Alerts'));
    expect(summary).toContain('**Temperature:** Not measured — not scored.');
    expect(summary).toMatch(/Drug–allergy alert/);
  });

  it('unwraps an answer fenced as a code block', async () => {
    model.mode = 'fenced';
    const { summary } = (await summarize()).json();
    expect(summary).not.toContain('```');
    expect(summary).toContain('She reports **two days** of central chest pain.');
  });

  it.each(Object.keys(HOSTILE) as HostileMode[])(
    'drops a hostile answer whole and keeps the deterministic summary (%s)',
    async (mode) => {
      model.mode = mode;
      const { summary } = (await summarize()).json();
      expect(summary).toBe(deterministic());
      expect(summary).not.toMatch(/safe for discharge|No known drug allergies|NEWS2 0|120\/80|sepsis excluded|## Discharge/i);
      // the dropped answer is not credited to the model
      expect((await storedRecord()).summaryInfo?.rewrittenBy).toBeNull();
    },
  );

  // Hazard H19: the guard corpus's end-to-end cases through this endpoint. A hostile rewrite of the
  // presenting complaint leaves the stored summary the deterministic one; a faithful one is used.
  it.each((guardCorpus.cases as GuardCase[]).filter((c) => c.e2e).map((c) => [c.expected, c.rewrite, c] as const))(
    '%s through the endpoint: "%s"',
    async (_expected, _rewrite, c) => {
      const label = '**Presenting complaints:** ';
      expect(c.source.startsWith(label)).toBe(true);
      const created = await t.app.inject({
        method: 'POST',
        url: `/medicalhistory/${patient.id}`,
        headers: bearer(doctor.token),
        payload: recordBody({ history: { historyOfPresentingComplaints: c.source.slice(label.length) } }),
      });
      const id = created.json().record._id;
      const summarizeIt = async () =>
        (await t.app.inject({ method: 'POST', url: `/medicalhistory/summary/${id}`, headers: bearer(doctor.token) })).json()
          .summary as string;
      model.mode = 'status500'; // the model fails: the deterministic summary
      const deterministicText = await summarizeIt();
      expect(block(deterministicText, 'Presenting complaint')).toBe(`## Presenting complaint\n${c.source}`);

      model.mode = 'complaint';
      model.complaint = c.rewrite;
      const summary = await summarizeIt();
      const storedText = (
        await t.app.inject({ method: 'GET', url: `/medicalHistory/${id}`, headers: bearer(doctor.token) })
      ).json().summary;
      expect(storedText).toBe(summary);
      if (c.expected === 'reject') {
        expect(summary).toBe(deterministicText);
        expect(summary).not.toContain(c.rewrite);
      } else {
        expect(block(summary, 'Presenting complaint')).toBe(`## Presenting complaint\n${c.rewrite}`);
        for (const title of ['Patient', 'Key history', 'Allergies', 'Vital signs', 'Alerts'])
          expect(block(summary, title)).toBe(block(deterministicText, title));
      }
    },
  );

  it.each<Mode>(['status500', 'hang', 'not-json', 'no-choices', 'empty-content', 'no-alerts-heading'])(
    'falls back to the deterministic summary when the model fails (%s)',
    async (mode) => {
      model.mode = mode;
      const started = Date.now();
      const res = await summarize();
      expect(res.statusCode).toBe(200);
      expect(res.json().summary).toBe(deterministic());
      const kept = await storedRecord();
      expect(kept.summary).toBe(deterministic());
      // no model text kept: not credited to the model
      expect(kept.summaryInfo?.rewrittenBy).toBeNull();
      expect(model.requests).toHaveLength(1);
      if (mode === 'hang') expect(Date.now() - started).toBeLessThan(5000); // the 300 ms timeout, not the test's
    },
  );

  it('falls back when the endpoint is unreachable, and uses the injected fetch', async () => {
    const calls: string[] = [];
    const failing: typeof fetch = async (input) => {
      calls.push(String(input));
      throw new TypeError('fetch failed');
    };
    const other = await createTestApp(
      tdb.adapter,
      { SUMMARY_LLM_URL: 'http://127.0.0.1:9/v1/chat/completions', SUMMARY_LLM_MODEL: 'm' },
      undefined,
      undefined,
      { fetch: failing },
    );
    setClock(other, t.clock.now().toISOString());
    try {
      const res = await other.app.inject({
        method: 'POST',
        url: `/medicalhistory/summary/${record._id}`,
        headers: bearer(doctor.token),
      });
      expect(res.statusCode).toBe(200);
      expect(res.json().summary).toBe(deterministic());
      expect(calls).toEqual(['http://127.0.0.1:9/v1/chat/completions']);
    } finally {
      await other.app.close();
    }
  });
});

describe('mergeNarrative', () => {
  const det =
    [
      '## Patient\n**Name:** X',
      '## Presenting complaint\n**Presenting complaints:** cough for 3 days',
      '## Key history\n**Drug history:** metformin',
      '## Allergies\n**Allergies:** Not recorded.',
      '## Vital signs\n**Pulse:** 78 /min\n**NEWS2 incomplete: at least 1**',
      '## Treatment\nNone recorded.',
      '## Alerts\nNo alerts.\n\n' + DISCLAIMER,
    ].join('\n\n') + '\n';
  const model = (complaint: string, history = 'Takes metformin.') =>
    det
      .replace('**Presenting complaints:** cough for 3 days', complaint)
      .replace('**Drug history:** metformin', history)
      .replace('**Pulse:** 78 /min', 'all fine')
      .replace('No alerts.', 'none');

  it('takes only the narrative prose; every computed section is the deterministic one', () => {
    expect(mergeNarrative(model('A cough of 3 days.'), det)).toBe(
      det
        .replace('**Presenting complaints:** cough for 3 days', 'A cough of 3 days.')
        .replace('**Drug history:** metformin', 'Takes metformin.'),
    );
  });

  it('handles CRLF and a fenced answer', () => {
    const out = mergeNarrative('```\n' + model('A cough for 3 days.').replace(/\n/g, '\r\n') + '\n```', det);
    expect(out).not.toMatch(/\r|```/);
    expect(out).toContain('## Presenting complaint\nA cough for 3 days.');
  });

  it.each([
    ['a repeated heading', model('A cough for 3 days.') + '\n## Alerts\nz'],
    ['an added heading', model('A cough for 3 days.').replace('## Treatment', '## Plan\nDischarge home.\n\n## Treatment')],
    ['a dropped heading', model('A cough for 3 days.').replace('## Allergies\n', '')],
    [
      'headings moved',
      model('A cough for 3 days.')
        .replace('## Patient', '## Key history')
        .replace(/## Key history\nTakes/, '## Patient\nTakes'),
    ],
    ['a preamble', 'Here is the summary:\n\n' + model('A cough for 3 days.')],
    ['no headings at all', 'The patient is well.'],
    ['no narrative', det.replace('**Presenting complaints:** cough for 3 days', '').replace('**Drug history:** metformin', '')],
    ['far too long', model('x'.repeat(60_000))],
    ['no known drug allergies', model('A cough for 3 days. No known drug allergies.')],
    ['NKDA', model('A cough for 3 days.', 'Metformin; NKDA.')],
    ['a NEWS2 of its own', model('A cough for 3 days; NEWS2 0.')],
    ['discharge advice', model('A cough for 3 days, safe for discharge.')],
    ['an invented number', model('A cough for 5 days.')],
    ['a vital sign', model('A cough for 3 days; pulse normal.')],
    ['a sepsis verdict', model('A cough for 3 days; not septic.')],
    ['a denied finding', model('Denies cough.')],
    ['a diagnosis', model('A cough for 3 days, likely viral.')],
    ['a lost finding', model('A cough.')],
    ['a lost drug', model('A cough for 3 days.', 'No regular medication.')],
  ])('refuses a text with %s', (_name, text) => {
    expect(() => mergeNarrative(text, det)).toThrow(NarrativeRejected);
  });

  it('names the owned term it found', () => {
    expect(() => mergeNarrative(model('A cough for 3 days; no allergies.'), det)).toThrow(/allergies/);
  });
});

describe('narrativeSummary', () => {
  const det = [
    '## Patient\n**Name:** X',
    '## Presenting complaint\n**Presenting complaints:** crushing central chest pain radiating to the left arm, haemoptysis',
    '## Key history\nNot recorded.',
    '## Alerts\nNo alerts.\n\n' + DISCLAIMER,
  ].join('\n\n');
  const llm = { url: 'http://model.test/v1/chat/completions', model: 'clinical-rewriter-7b', timeoutMs: 1000 };
  const answering =
    (complaint: string): typeof fetch =>
    async () =>
      new Response(
        JSON.stringify({
          choices: [{ message: { content: det.replace(/(## Presenting complaint\n)[^\n]*/, `$1${complaint}`) } }],
        }),
        { status: 200, headers: { 'content-type': 'application/json' } },
      );

  it('names the model whose rewrite was kept', async () => {
    const outcome = await narrativeSummary(
      det,
      llm,
      answering('Crushing central chest pain radiating to the left arm, with haemoptysis.'),
    );
    expect(outcome).toMatchObject({ source: 'model', rewrittenBy: { model: 'clinical-rewriter-7b' } });
    expect(outcome.error).toBeUndefined();
    expect(outcome.summary).toContain('with haemoptysis.');
  });

  it('names no model when the deterministic text is kept: refused, failed or not configured', async () => {
    const refused = await narrativeSummary(det, llm, answering('Patient denies chest pain and haemoptysis; ACS ruled out.'));
    expect(refused).toMatchObject({ summary: det, source: 'deterministic' });
    expect(refused.rewrittenBy).toBeUndefined();
    expect(refused.error).toBeInstanceOf(NarrativeRejected);
    const failed = await narrativeSummary(det, llm, async () => new Response('{}', { status: 500 }));
    expect(failed.rewrittenBy).toBeUndefined();
    expect(await narrativeSummary(det, undefined, fetch)).toEqual({ summary: det, source: 'deterministic' });
  });
});

describe('summary model configuration', () => {
  it('is off unless both URL and model are set; the timeout defaults to 15 s', () => {
    expect(loadConfig({}).summaryLlm).toBeUndefined();
    expect(loadConfig({ SUMMARY_LLM_URL: 'https://llm.example/v1/chat/completions', SUMMARY_LLM_MODEL: 'm' }).summaryLlm).toEqual(
      {
        url: 'https://llm.example/v1/chat/completions',
        model: 'm',
        key: undefined,
        timeoutMs: 15000,
      },
    );
    expect(
      loadConfig({
        SUMMARY_LLM_URL: 'http://127.0.0.1:1234/v1/chat/completions',
        SUMMARY_LLM_MODEL: 'm',
        SUMMARY_LLM_KEY: 'k',
        SUMMARY_LLM_TIMEOUT_MS: '2500',
      }).summaryLlm,
    ).toMatchObject({ key: 'k', timeoutMs: 2500 });
    expect(loadConfig({ SUMMARY_LLM_URL: '', SUMMARY_LLM_MODEL: '' }).summaryLlm).toBeUndefined();
  });

  it.each([
    [{ SUMMARY_LLM_URL: 'https://llm.example/v1' }, /SUMMARY_LLM_MODEL/],
    [{ SUMMARY_LLM_MODEL: 'm' }, /SUMMARY_LLM_MODEL/],
    [{ SUMMARY_LLM_URL: 'ftp://llm.example', SUMMARY_LLM_MODEL: 'm' }, /SUMMARY_LLM_URL/],
    [{ SUMMARY_LLM_URL: 'not a url', SUMMARY_LLM_MODEL: 'm' }, /SUMMARY_LLM_URL/],
    [{ SUMMARY_LLM_URL: 'https://x.example', SUMMARY_LLM_MODEL: 'm', SUMMARY_LLM_TIMEOUT_MS: '5' }, /SUMMARY_LLM_TIMEOUT_MS/],
    [{ SUMMARY_LLM_URL: 'https://x.example', SUMMARY_LLM_MODEL: 'm', SUMMARY_LLM_TIMEOUT_MS: 'soon' }, /SUMMARY_LLM_TIMEOUT_MS/],
  ])('refuses %j', (env, message) => {
    expect(() => loadConfig(env)).toThrow(message);
  });
});
