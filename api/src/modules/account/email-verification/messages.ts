/** Texts of e-mail verification (issue 11): the mail, and the answers the verify page and banner show. */
export const VERIFY_MAIL_SUBJECT = 'Verify your CareLoop e-mail address';
export const VERIFY_DONE = 'Your e-mail address is verified. Thank you!';
export const VERIFY_INVALID =
  "This verification link is invalid, already used or expired, or the account's e-mail or password changed since it was sent";
/** A spent link whose address is the account's, verified (410): nothing is left to do but sign in. */
export const VERIFY_USED = 'This verification link was already used: your e-mail address is verified. Sign in to continue.';
export const DISOWN_DONE = 'The account made with this e-mail address was deleted. Thank you for telling us.';
export const DISOWN_CHANGE_DONE = 'This e-mail address will not be added to that account.';
export const DISOWN_VERIFIED = 'This account is verified: it cannot be deleted from a verification link';
export const DISOWN_HAS_RECORDS = 'This account holds clinical records and cannot be deleted from a verification link';
export const VERIFY_TAKEN = 'Another account uses this e-mail address now, so it cannot be verified for yours';
export const ALREADY_VERIFIED = 'Your e-mail address is already verified';
export const RESEND_TOO_SOON = 'A link was sent less than a minute ago. Please wait a minute before asking again.';
export const RESEND_TOO_MANY = 'Too many verification e-mails in the last hour. Please try again later.';
export const resendDone = (email: string) => `A new verification link has been sent to ${email}.`;

export function verifyMailText(link: string): string {
  return [
    'Hello,',
    '',
    'Please confirm that this e-mail address belongs to your CareLoop account by opening this link:',
    '',
    link,
    '',
    'The link works once and expires in 24 hours.',
    'Until then, doctors and patients cannot find your account by this address and no reminders are sent to it.',
    'If you did not create a CareLoop account, open the link and choose "I did not create this account" to delete it.',
    '',
    'CareLoop',
  ].join('\n');
}
