import { googleSignInErrorText, ownEntry, DUPLICATE_EMAIL } from '@careloop/shared-contracts';
import { fieldErrorsFrom } from './formSchemas';

// Texts looked up by a key from outside (a query value, a server message) must not reach
// Object.prototype: `{}['__proto__']` is an object and `{}['constructor']` a function.
const PROTOTYPE_KEYS = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf', '__defineGetter__'];

test.each(PROTOTYPE_KEYS)('ownEntry and googleSignInErrorText answer undefined for %s', (key) => {
  expect(ownEntry({ a: 'A' }, key)).toBeUndefined();
  expect(googleSignInErrorText(key)).toBeUndefined();
});

test('ownEntry answers own entries, and undefined for a missing or non-string key', () => {
  expect(ownEntry({ a: 'A' }, 'a')).toBe('A');
  expect(ownEntry({ a: 'A' }, 'b')).toBeUndefined();
  expect(ownEntry({ a: 'A' }, null)).toBeUndefined();
  expect(ownEntry({ a: 'A' }, undefined)).toBeUndefined();
  expect(googleSignInErrorText('google_failed')).toBe('Google sign-in did not complete. Please try again.');
  expect(googleSignInErrorText(null)).toBeUndefined();
});

test.each(PROTOTYPE_KEYS)('a server message %s is matched to no field', (message) => {
  expect(fieldErrorsFrom(message, ['email', 'constructor', '__proto__'])).toEqual([]);
});

test('the duplicate e-mail message still belongs to the email field', () => {
  expect(fieldErrorsFrom(DUPLICATE_EMAIL, ['email'])).toEqual([{ field: 'email', message: DUPLICATE_EMAIL }]);
});
