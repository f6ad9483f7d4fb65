// Error texts of the api that the web apps also read (to place them beside a field), so both
// sides use the one string.

/** 409 on signup and profile edit: the e-mail is taken (shown beside the e-mail field). */
export const DUPLICATE_EMAIL = 'An account with this e-mail already exists';
