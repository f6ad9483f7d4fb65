import { NOTICES } from './index';

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

  it('names the new address to the old one, and gives the link only to the new one', () => {
    expect(all.emailChangeAsked.text).toContain('to new@example.com was asked');
    expect(all.emailChangeAsked.text).not.toContain('verify-email');
    expect(all.confirmNewEmail.text).toContain('https://care.example/doctor/verify-email/abc');
    expect(all.confirmNewEmail.text).toContain('expires in 24 hours');
  });
});
