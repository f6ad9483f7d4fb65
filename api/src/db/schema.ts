import { sql } from 'drizzle-orm';
import { boolean, date, index, integer, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';

// Patients and doctors are separate tables: an e-mail is unique per role, not across roles.
// E-mails are stored lower-cased (the contract lower-cases them), so a plain unique index is enough.

const timestamps = {
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
};

export const patients = pgTable('patients', {
  id: uuid('id').primaryKey().defaultRandom(),
  name: text('name').notNull(),
  email: text('email').notNull().unique('patients_email_unique'),
  passwordHash: text('password_hash').notNull(),
  dob: date('dob', { mode: 'string' }),
  gender: text('gender').notNull().default('Prefer not to say'),
  maritalStatus: text('marital_status').notNull().default('Unmarried'),
  occupation: text('occupation').notNull().default(''),
  // Four columns rather than one JSON value so a partial address update touches only its fields.
  addressStreet: text('address_street').notNull().default(''),
  addressCity: text('address_city').notNull().default(''),
  addressState: text('address_state').notNull().default(''),
  addressPinCode: text('address_pin_code').notNull().default(''),
  twoFactorEnabled: boolean('two_factor_enabled').notNull().default(false),
  ...timestamps,
});

export const doctors = pgTable('doctors', {
  id: uuid('id').primaryKey().defaultRandom(),
  name: text('name').notNull(),
  email: text('email').notNull().unique('doctors_email_unique'),
  passwordHash: text('password_hash').notNull(),
  yearsOfExperience: integer('years_of_experience').notNull().default(1),
  specialization: text('specialization').array().notNull().default(sql`'{}'::text[]`),
  qualifications: text('qualifications').array().notNull().default(sql`'{}'::text[]`),
  gender: text('gender').notNull().default('Prefer not to say'),
  twoFactorEnabled: boolean('two_factor_enabled').notNull().default(false),
  ...timestamps,
});

/** Bearer sessions. Only the SHA-256 of the token is stored: a database leak yields no usable token. */
export const sessions = pgTable(
  'sessions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tokenHash: text('token_hash').notNull().unique('sessions_token_hash_unique'),
    role: text('role').notNull(),
    // No foreign key: the account lives in patients or doctors depending on role.
    accountId: uuid('account_id').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [index('sessions_account_idx').on(t.role, t.accountId), index('sessions_expires_idx').on(t.expiresAt)],
);

/**
 * Consecutive failed logins per (role, e-mail), kept in the database so every replica sees the
 * same count. Keyed by the e-mail typed, not the account, so unknown e-mails lock the same way
 * and a lockout does not reveal whether an account exists.
 */
export const loginFailures = pgTable(
  'login_failures',
  {
    role: text('role').notNull(),
    email: text('email').notNull(),
    failures: integer('failures').notNull().default(0),
    lockedUntil: timestamp('locked_until', { withTimezone: true }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.role, t.email] }), index('login_failures_updated_idx').on(t.updatedAt)],
);
