import { findPhi, phiOf } from './phi-in-logs';

describe('the PHI detector over log lines', () => {
  const line = (msg: string) => JSON.stringify({ level: 30, reqId: 'r-1', msg });

  it('notes the names, e-mails, free text and file names a request sends, not its ids, dates or tokens', () => {
    const noted = phiOf({
      name: 'Ada Lovelace',
      email: 'ada@example.com',
      notes: 'Chest pain since morning',
      patientId: '5078bb55-6e6c-4513-abff-0e1c98ae6484',
      dateOfBirth: '1990-01-02',
      token: 'eyJhbGciOiJIUzI1NiJ9x',
      fileType: 'application/pdf',
      nested: [{ fileName: 'bloodtest.pdf' }, { fileName: 'a.pdf' }],
      code: 'J45.909',
    });
    expect(noted.sort()).toEqual(['Ada Lovelace', 'Chest pain since morning', 'ada@example.com', 'bloodtest.pdf']);
  });

  it('finds a noted value in any case and punctuation, and any e-mail address at all', () => {
    const noted = ['Ada Lovelace', 'Chest pain since morning', 'bloodtest.pdf'];
    const findings = findPhi(
      [
        line('request completed'),
        line('patient ADA  LOVELACE signed in'),
        line('summary: chest pain, since morning'),
        line('stored /files/bloodtest.pdf'),
        line('mail to someone@elsewhere.org failed'),
        line('Ada signed in'), // one word of a name: not enough to say
        line('chest pain'), // the start of a text, not the text
      ],
      noted,
    );
    expect(findings.map((f) => f.value)).toEqual([
      'Ada Lovelace',
      'Chest pain since morning',
      'bloodtest.pdf',
      'someone@elsewhere.org',
    ]);
  });

  it('passes log lines with none of it', () => {
    expect(findPhi([line('request completed'), line('reminder sweep')], ['Ada Lovelace'])).toEqual([]);
  });
});

describe('the PHI detector on huge input', () => {
  it('takes linear time on a long run of letters (a too-large body a test sends)', () => {
    // Quadratic (an e-mail pattern tried from every letter), this would run for hours: the test's timeout fails it.
    expect(phiOf({ text: 'x'.repeat(2_000_000) })).toEqual([]);
    expect(findPhi(['y'.repeat(2_000_000)], [])).toEqual([]);
  });
});
