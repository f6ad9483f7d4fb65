import { PERSON_NAME_ERROR, PERSON_NAME_MIXED_SCRIPTS_ERROR, PERSON_NAME_STACKED_MARKS_ERROR } from '@careloop/shared-contracts';
import { appPerFile, BACKENDS, bearer, signup, uniqueEmail, signupExtras } from '../../test/helpers';

// Names are shown to the other role (lists, requests) and put in mails: nothing that can break a
// line, hide text or reverse it.
const SPOOFING_NAMES: Array<[string, string]> = [
  ['CR/LF', 'Eve\r\nBcc: victim@example.com'],
  ['a lone LF', 'Eve\nAdmin'],
  ['a TAB', 'Eve\tSmith'],
  ['a C1 control (NEL)', 'Eve\u0085Smith'],
  ['a right-to-left override (U+202E)', 'Dr \u202Eenoemos'],
  ['a left-to-right embedding (U+202A)', 'Dr \u202ASmith'],
  ['a first-strong isolate (U+2068)', 'Dr \u2068Smith\u2069'],
  ['a zero-width space (U+200B)', 'Dr Sm\u200Bith'],
  ['a right-to-left mark (U+200F)', 'Dr Smith\u200F'],
  ['a zero-width no-break space inside (U+FEFF)', 'Dr Sm\uFEFFith'],
  ['a line separator (U+2028)', 'Eve\u2028Smith'],
  ['a Hangul filler (U+3164), which renders as nothing', 'Dr Smith\u3164'],
  ['a halfwidth Hangul filler (U+FFA0)', 'Dr \uFFA0Smith'],
  ['a soft hyphen (U+00AD)', 'Sm\u00ADith'],
  ['a blank Braille pattern (U+2800)', '\u2800Eve'],
];
/** Names that look like someone else's: look-alike letters of another alphabet, or accents piled up. */
const LOOK_ALIKE_NAMES: Array<[string, string, string]> = [
  ['a Cyrillic а inside a Latin word', 'Dr P\u0430tel', PERSON_NAME_MIXED_SCRIPTS_ERROR],
  ['a Greek ο inside a Latin word', 'J\u03BFhn Smith', PERSON_NAME_MIXED_SCRIPTS_ERROR],
  ['three combining marks on one letter', 'Ze\u0301\u0302\u0303d', PERSON_NAME_STACKED_MARKS_ERROR],
  ['an é with two more marks', 'Z\u00E9\u0302\u0303d', PERSON_NAME_STACKED_MARKS_ERROR],
];
const FINE_NAMES = [
  "Zoë O'Brien-Łukasiewicz",
  '山田 太郎',
  '山田たろう',
  '김민준',
  'محمد علي',
  'José María de la Cruz',
  'Dr. A. N. Other Jr.',
  'Nguyễn Thị Ệ',
  'Иван Petrov',
];

describe.each(BACKENDS)('person names refuse control, invisible and bidi characters (%s)', (backend) => {
  // about names: a doctor edits a profile without first setting up two-factor
  const fixture = appPerFile(backend, { REQUIRE_MFA_FOR: 'none' });
  const signupWith = (role: 'patient' | 'doctor', name: string) =>
    fixture.t.app.inject({
      method: 'POST',
      url: `/${role}/signup`,
      payload: { name, email: uniqueEmail(role), password: 'correct horse battery', ...signupExtras(role) },
    });

  describe.each(['patient', 'doctor'] as const)('%s', (role) => {
    it.each(SPOOFING_NAMES)('signup refuses a name with %s (400), creating no account', async (_label, name) => {
      const res = await signupWith(role, name);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ error: `name: ${PERSON_NAME_ERROR}` });
    });

    it.each(SPOOFING_NAMES)('PATCH /%s/me refuses a name with %s, keeping the old one', async (_label, name) => {
      const { token } = await signup(fixture.t.app, role, { name: 'Eve Original' });
      const res = await fixture.t.app.inject({ method: 'PATCH', url: `/${role}/me`, headers: bearer(token), payload: { name } });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ error: `name: ${PERSON_NAME_ERROR}` });
      const me = (await fixture.t.app.inject({ method: 'GET', url: `/${role}/me`, headers: bearer(token) })).json();
      expect(me[role].name).toBe('Eve Original');
    });

    it.each(LOOK_ALIKE_NAMES)('signup refuses %s (400) with a message that says why', async (_label, name, error) => {
      const res = await signupWith(role, name);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ error: `name: ${error}` });
    });

    it.each(FINE_NAMES.map((n) => [n]))('accepts %s at signup and in an edit', async (name) => {
      const res = await signupWith(role, name);
      expect(res.statusCode).toBe(201);
      const { token } = res.json();
      const edit = await fixture.t.app.inject({
        method: 'PATCH',
        url: `/${role}/me`,
        headers: bearer(token),
        payload: { name: `${name} II` },
      });
      expect(edit.statusCode).toBe(200);
      expect(edit.json()[role].name).toBe(`${name} II`);
    });

    it('still trims surrounding white space (a trailing newline is not part of the name)', async () => {
      const res = await signupWith(role, '  Eve Smith\r\n');
      expect(res.statusCode).toBe(201);
      const me = await fixture.t.app.inject({ method: 'GET', url: `/${role}/me`, headers: bearer(res.json().token) });
      expect(me.json()[role].name).toBe('Eve Smith');
    });
  });
});
