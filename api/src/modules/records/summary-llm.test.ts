import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { MedicalRecord } from 'shared-contracts';
import { account, connect, recordBody, setClock, type Account } from '../../test/clinical';
import { BACKENDS, bearer, createTestApp, createTestDb, type TestApp, type TestDb } from '../../test/helpers';
import { loadConfig } from '../../config';
import { buildSummary, DISCLAIMER } from '../../clinical';
import { mergeNarrative, NarrativeError, SYSTEM_PROMPT } from '../../adapters/model';

/** The deterministic block of a section: heading to the next blank line. */
const block = (markdown: string, title: string) => markdown.split('\n\n').find((b) => b.startsWith(`## ${title}\n`))!;

/** What the fake model does with the text it is sent. */
type Mode =
  'rewrite' | 'tamper' | 'status500' | 'hang' | 'not-json' | 'no-choices' | 'empty-content' | 'no-alerts-heading' | 'fenced';

/** A fake OpenAI-style chat-completions server on 127.0.0.1 (a real socket, a random port). */
class FakeModel {
  mode: Mode = 'rewrite';
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
    .replace(/\*\*NEWS2 \(partial\): \d+\*\*/, '**NEWS2 (partial): 9**')
    .replace(/## Alerts\n[\s\S]*?(\n\n|$)/, '## Alerts\nNo alerts. The temperature is fine.$1')
    .replace(/\*\*Temperature:\*\*[^\n]*/, '**Temperature:** 37 °C: normal');
}

describe.each(BACKENDS)('summary with a language model on %s', (backend) => {
  let tdb: TestDb;
  let t: TestApp;
  let model: FakeModel;
  let doctor: Account;
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
    const patient = await account(t, 'patient', { name: 'Pat Doe', DOB: '1990-02-28', gender: 'Female' });
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
  const deterministic = () => buildSummary(record, { prescriptions: [] }).markdown;
  const stored = async () =>
    (await t.app.inject({ method: 'GET', url: `/medicalHistory/${record._id}`, headers: bearer(doctor.token) })).json().summary;

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
        { role: 'system', content: SYSTEM_PROMPT },
        { role: 'user', content: deterministic() },
      ],
      temperature: 0,
    });
    expect(SYSTEM_PROMPT).toMatch(/## /);
    expect(SYSTEM_PROMPT).toMatch(/\*\*bold\*\*/);
  });

  it("keeps the model's narrative and the computed sections verbatim", async () => {
    const res = await summarize();
    expect(res.statusCode).toBe(200);
    const { summary } = res.json();
    expect(summary).toContain('She reports **two days** of central chest pain.');
    expect(summary).toContain('A **35-year-old** woman admitted as an emergency.');
    // the narrative may not state a NEWS2 of its own
    expect(summary).not.toContain('Her NEWS2 is 0');
    expect(block(summary, 'Vital signs')).toBe(block(deterministic(), 'Vital signs'));
    expect(block(summary, 'Alerts')).toBe(block(deterministic(), 'Alerts'));
    expect(summary).toMatch(/Hypertensive crisis/);
    expect(summary.trimEnd().endsWith(DISCLAIMER)).toBe(true);
    expect(summary.split(DISCLAIMER)).toHaveLength(2);
    expect(await stored()).toBe(summary);
  });

  it('a model that alters NEWS2, the flags or the alerts is overruled by the computed sections', async () => {
    model.mode = 'tamper';
    const { summary } = (await summarize()).json();
    expect(summary).toContain('She reports **two days** of central chest pain.');
    expect(summary).not.toContain('NEWS2 (partial): 9');
    expect(summary).not.toContain('The temperature is fine');
    expect(summary).not.toContain('37 °C: normal');
    expect(block(summary, 'Vital signs')).toBe(block(deterministic(), 'Vital signs'));
    expect(block(summary, 'Alerts')).toBe(block(deterministic(), 'Alerts'));
    expect(summary).toMatch(/Implausible value:\*\* temperature “9”/);
    expect(summary).toMatch(/Drug–allergy alert/);
  });

  it('unwraps an answer fenced as a code block', async () => {
    model.mode = 'fenced';
    const { summary } = (await summarize()).json();
    expect(summary).not.toContain('```');
    expect(summary).toContain('She reports **two days** of central chest pain.');
  });

  it.each<Mode>(['status500', 'hang', 'not-json', 'no-choices', 'empty-content', 'no-alerts-heading'])(
    'falls back to the deterministic summary when the model fails (%s)',
    async (mode) => {
      model.mode = mode;
      const started = Date.now();
      const res = await summarize();
      expect(res.statusCode).toBe(200);
      expect(res.json().summary).toBe(deterministic());
      expect(await stored()).toBe(deterministic());
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
      '## Vital signs\n**Pulse:** 78 /min\n**NEWS2 (partial): 1**',
      '## Treatment\nNone recorded.',
      '## Alerts\nNo alerts.',
      DISCLAIMER,
    ].join('\n\n') + '\n';

  it("replaces the computed sections, keeps the model's order and prose, drops any preamble", () => {
    const model =
      'Here is the summary:\n\n# Patient\nMr X.\n\n### Vital signs:\nall fine\n\n## Treatment ##\nNothing given.\n\n## **Alerts**\nnone\n\n' +
      DISCLAIMER;
    expect(mergeNarrative(model, det)).toBe(
      [
        '## Patient\nMr X.',
        '## Vital signs\n**Pulse:** 78 /min\n**NEWS2 (partial): 1**',
        '## Treatment\nNothing given.',
        '## Alerts\nNo alerts.',
        DISCLAIMER,
      ].join('\n\n') + '\n',
    );
  });

  it('keeps a computed section once when the model repeats it; handles CRLF', () => {
    const model = '## Patient\r\nMr X.\r\n\r\n## Vital signs\r\nx\r\n\r\n## Alerts\r\ny\r\n\r\n## Vital signs\r\nz';
    const out = mergeNarrative(model, det);
    expect(out.match(/## Vital signs/g)).toHaveLength(1);
    expect(out).not.toMatch(/\r/);
  });

  it.each([
    ['no vital signs', '## Patient\nMr X.\n\n## Alerts\nnone'],
    ['no alerts', '## Patient\nMr X.\n\n## Vital signs\nfine'],
    ['no narrative', '## Vital signs\nfine\n\n## Alerts\nnone'],
    ['no headings at all', 'The patient is well.'],
    ['far too long', `## Patient\n${'x'.repeat(60_000)}\n\n## Vital signs\n\n## Alerts\n`],
  ])('refuses a text with %s', (_name, model) => {
    expect(() => mergeNarrative(model, det)).toThrow(NarrativeError);
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
