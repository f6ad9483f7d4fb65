import { z } from 'zod';
import { PASSWORD_MAX, PASSWORD_MIN } from './constants';

/** The most common leaked passwords that still meet the length rule. */
export const COMMON_PASSWORDS = new Set([
  'password',
  'password1',
  'password12',
  'password123',
  'password1234',
  '12345678',
  '123456789',
  '1234567890',
  '12345678910',
  'qwertyuiop',
  'qwerty123',
  'qwerty1234',
  '1q2w3e4r',
  '1q2w3e4r5t',
  'iloveyou',
  'iloveyou1',
  'sunshine1',
  'princess1',
  'football1',
  'baseball1',
  'welcome1',
  'welcome123',
  'abc12345',
  'abcd1234',
  'admin123',
  'administrator',
  'letmein1',
  'monkey123',
  'dragon123',
  'trustno1',
  'passw0rd',
  'p@ssw0rd',
  'p@ssword',
  'changeme',
  'changeme1',
  '11111111',
  '00000000',
  '88888888',
  '87654321',
  'asdfghjkl',
  'zxcvbnm1',
  'superman1',
  'starwars1',
  'whatever1',
  'qazwsxedc',
  'computer1',
  'michael1',
  'jennifer1',
  'careloop1',
]);

export const Password = z
  .string()
  .min(PASSWORD_MIN, { error: `Password must be at least ${PASSWORD_MIN} characters` })
  .max(PASSWORD_MAX, { error: `Password must be at most ${PASSWORD_MAX} characters` })
  .refine((p) => !COMMON_PASSWORDS.has(p.toLowerCase()), { error: 'This password is too common' });
