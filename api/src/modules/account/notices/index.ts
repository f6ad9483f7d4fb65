import type { Role } from '@careloop/shared-contracts';
import type { Mailer } from '../../../adapters/mail';
import type { BackgroundTasks } from '../../../lib/background';

// The mails that tell an account's owner about a change to its security (issue 11): every text in
// one place, plain text, subjects starting "CareLoop: ". They go out after the answer (like the
// password-reset mail), so a slow mail server never holds up or fails the change itself.

export interface Notice {
  subject: string;
  text: string;
}

const SIGNATURE = ['', 'CareLoop'];
/** Whose account, and where the web app is (for the way back in). */
export interface NoticeContext {
  webOrigin: string;
  role: Role;
}

/**
 * The new address as the old one is told of it: `j•••@e•••.com` (first letter of the name and of
 * the domain, the top-level domain kept). Whoever reads the old mailbox (its owner, or someone who
 * took it) learns that an address was set, not which: the new one is no lead to the account's owner.
 */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  const local = at > 0 ? email.slice(0, at) : email;
  const domain = at > 0 ? email.slice(at + 1) : '';
  const dot = domain.lastIndexOf('.');
  const tld = dot > 0 ? domain.slice(dot) : '';
  return `${local.slice(0, 1)}•••@${domain.slice(0, 1)}•••${tld}`;
}

const NOT_YOU = ({ webOrigin, role }: NoticeContext) =>
  `If this was not you, reset your password now at ${webOrigin}/${role}/forgot-password and check your two-factor authentication.`;

export const NOTICES = {
  passwordChanged: (at: NoticeContext): Notice => ({
    subject: 'CareLoop: your password was changed',
    text: [
      'Hello,',
      '',
      'The password of your CareLoop account was just changed, and every other session was signed out.',
      NOT_YOU(at),
      ...SIGNATURE,
    ].join('\n'),
  }),
  /** To the old address, when a new one is asked for (it is in force only once the link is used). */
  emailChangeAsked: (at: NoticeContext, newEmail: string): Notice => ({
    subject: 'CareLoop: a change of your e-mail address was asked',
    text: [
      'Hello,',
      '',
      `A change of the e-mail address of your CareLoop account to ${maskEmail(newEmail)} was asked.`,
      'It takes effect only once the link sent to that address is opened; until then this address stays in use.',
      NOT_YOU(at),
      ...SIGNATURE,
    ].join('\n'),
  }),
  /**
   * To the old address, once the link was used and the new address is in force. For the
   * verify-email endpoint (POST /{role}/verify-email/{token}), which consumeEmailToken serves.
   */
  emailChanged: (at: NoticeContext, newEmail: string): Notice => ({
    subject: 'CareLoop: your e-mail address was changed',
    text: [
      'Hello,',
      '',
      `The e-mail address of your CareLoop account is now ${maskEmail(newEmail)}; this address is no longer used for it.`,
      NOT_YOU(at),
      ...SIGNATURE,
    ].join('\n'),
  }),
  /** To the new address: the link that proves it (WEB_ORIGIN/{role}/verify-email/{token}). */
  confirmNewEmail: (link: string, hours: number): Notice => ({
    subject: 'CareLoop: confirm your new e-mail address',
    text: [
      'Hello,',
      '',
      'This address was given as the new e-mail of a CareLoop account. Open this link to confirm it:',
      '',
      link,
      '',
      `The link works once and expires in ${hours} hours. Until then the account keeps its old address.`,
      'If you did not ask for this, ignore this e-mail: nothing changes.',
      ...SIGNATURE,
    ].join('\n'),
  }),
  twoFactorOn: (at: NoticeContext): Notice => ({
    subject: 'CareLoop: two-factor authentication was turned on',
    text: [
      'Hello,',
      '',
      'Two-factor authentication was just turned on for your CareLoop account: every login now asks for a code from the authenticator app that was set up.',
      NOT_YOU(at),
      ...SIGNATURE,
    ].join('\n'),
  }),
  twoFactorOff: (at: NoticeContext): Notice => ({
    subject: 'CareLoop: two-factor authentication was turned off',
    text: [
      'Hello,',
      '',
      'Two-factor authentication was just turned off for your CareLoop account: logins no longer ask for a code.',
      NOT_YOU(at),
      ...SIGNATURE,
    ].join('\n'),
  }),
  /** To the address whose owner just took over an account someone else had made with it, unverified. */
  takenOver: ({ webOrigin, role }: NoticeContext): Notice => ({
    subject: 'CareLoop: you took over the account of your e-mail address',
    text: [
      'Hello,',
      '',
      'A CareLoop account had been made with this e-mail address but never verified. You proved the address, so the account is yours now.',
      'Everything the earlier holder had set was removed: their password, sessions, two-factor, files, allergies, profile details and connections.',
      `Check your profile and security log at ${webOrigin}/login/${role}.`,
      ...SIGNATURE,
    ].join('\n'),
  }),
  recoveryCodeSignIn: (at: NoticeContext, left: number): Notice => ({
    subject: 'CareLoop: someone signed in with a recovery code',
    text: [
      'Hello,',
      '',
      'Your CareLoop account was just signed in to with one of its two-factor recovery codes, and every other session was signed out.',
      `That code no longer works; ${left} unused recovery code${left === 1 ? ' is' : 's are'} left. Make new ones on the security page if you are running low.`,
      NOT_YOU(at),
      ...SIGNATURE,
    ].join('\n'),
  }),
} as const;

/** Sends a notice after the answer; a failure is logged by the background tasks, never shown to the caller. */
export function sendNotice(deps: { mailer: Mailer }, tasks: Pick<BackgroundTasks, 'run'>, to: string, notice: Notice): void {
  tasks.run(`notice: ${notice.subject}`, () => deps.mailer.send({ to, subject: notice.subject, text: notice.text }));
}
