import { maskEmail, NOTICES } from './index';

const at = { webOrigin: 'https://care.example', role: 'doctor' as const };

describe('notices', () => {
  const all = {
    passwordChanged: NOTICES.passwordChanged(at),
    emailChangeAsked: NOTICES.emailChangeAsked(at, 'new@example.com'),
    emailChanged: NOTICES.emailChanged(at, 'new@example.com'),
    confirmNewEmail: NOTICES.confirmNewEmail('https://care.example/doctor/verify-email/abc', 24),
    twoFactorOn: NOTICES.twoFactorOn(at),
    twoFactorOff: NOTICES.twoFactorOff(at),
    recoveryCodeSignIn: NOTICES.recoveryCodeSignIn(at, 9),
  };

  it.each(Object.entries(all))('%s: a "CareLoop: " subject on one line, and a plain-text body', (_name, notice) => {
    expect(notice.subject).toMatch(/^CareLoop: [^\r\n]+$/);
    expect(notice.text).not.toMatch(/<[a-z]/i);
    expect(notice.text.endsWith('CareLoop')).toBe(true);
  });

  it('tells the owner of a change where to take the account back', () => {
    for (const notice of [
      all.passwordChanged,
      all.emailChangeAsked,
      all.emailChanged,
      all.twoFactorOn,
      all.twoFactorOff,
      all.recoveryCodeSignIn,
    ]) {
      expect(notice.text).toContain(
        'If this was not you, reset your password now at https://care.example/doctor/forgot-password',
      );
    }
  });

  it('tells the old address of the new one only masked, and gives the link only to the new one', () => {
    expect(all.emailChangeAsked.text).toContain('to n•••@e•••.com was asked');
    expect(all.emailChanged.text).toContain('is now n•••@e•••.com;');
    for (const notice of [all.emailChangeAsked, all.emailChanged]) {
      expect(notice.text).not.toMatch(/new@|@example\.com/);
    }
    expect(all.emailChangeAsked.text).not.toContain('verify-email');
    expect(all.confirmNewEmail.text).toContain('https://care.example/doctor/verify-email/abc');
    expect(all.confirmNewEmail.text).toContain('expires in 24 hours');
  });
});

describe('maskEmail', () => {
  it('keeps the first letter of the name and of the domain, and the top-level domain', () => {
    expect(maskEmail('jane.doe@example.com')).toBe('j•••@e•••.com');
    expect(maskEmail('Bob@mail.clinic.co.uk')).toBe('B•••@m•••.uk');
    expect(maskEmail('x@localhost')).toBe('x•••@l•••');
  });
});
