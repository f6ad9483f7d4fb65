import { eq, sql } from 'drizzle-orm';
import {
  PatientMeResponse,
  PatientProfileUpdate,
  PatientSignup,
  PatientUpdateResponse,
  type Gender,
  type MaritalStatus,
  type Patient,
} from '@careloop/shared-contracts';
import type { z } from 'zod';
import { patients, sessions } from '../../db/schema';
import type { Db, Queryable } from '../../adapters/db';
import { assignedDoctorsJson } from '../../access';
import { liveSession, liveSessionParams, slideSession } from '../account/auth/sessions';
import { pendingEmailSql } from '../account/email-verification/tokens';
import type { ProfileSpec } from './spec';

/**
 * The columns a profile shows, and only those: GET /patient/me runs on every page load, and has no
 * business reading the password hash or the two-factor secrets (nor paying to send them).
 */
const PROFILE_COLUMNS = {
  id: patients.id,
  name: patients.name,
  email: patients.email,
  dob: patients.dob,
  gender: patients.gender,
  maritalStatus: patients.maritalStatus,
  occupation: patients.occupation,
  addressStreet: patients.addressStreet,
  addressCity: patients.addressCity,
  addressState: patients.addressState,
  addressPinCode: patients.addressPinCode,
  profileComplete: patients.profileComplete,
  twoFactorEnabled: patients.twoFactorEnabled,
  emailVerifiedAt: patients.emailVerifiedAt,
};
type Row = Pick<typeof patients.$inferSelect, keyof typeof PROFILE_COLUMNS>;

/** The whole profile — its columns, pending e-mail, assigned doctors — as one select. */
const meFields = () => ({
  row: PROFILE_COLUMNS,
  pendingEmail: pendingEmailSql('patient', patients.id, patients.email, patients.securityVersion, sql.placeholder('now')),
  assignedDoctors: assignedDoctorsJson(patients.id),
});

export function meQuery(db: Queryable) {
  return db
    .select(meFields())
    .from(patients)
    .where(eq(patients.id, sql.placeholder('id')))
    .limit(1)
    .prepare('patient_me');
}
const meQueries = new WeakMap<Queryable, ReturnType<typeof meQuery>>();

/** The same with the session of a token, sliding its idle limit: GET /patient/me in one round trip. */
export function meBySessionQuery(db: Db) {
  const touched = slideSession(db, 'patient');
  return db
    .with(touched)
    .select({ sessionId: sessions.id, ...meFields() })
    .from(sessions)
    .innerJoin(patients, eq(patients.id, sessions.accountId))
    .where(liveSession('patient'))
    .limit(1)
    .prepare('patient_me_by_session');
}
const meBySessionQueries = new WeakMap<Db, ReturnType<typeof meBySessionQuery>>();
type Update = z.output<typeof PatientProfileUpdate>;

function toPatient(r: Row, assignedDoctors: Patient['assignedDoctors'], pendingEmail: string | null): Patient {
  return {
    _id: r.id,
    name: r.name,
    email: r.email,
    DOB: r.dob,
    gender: r.gender as Gender,
    maritalStatus: r.maritalStatus as MaritalStatus,
    occupation: r.occupation,
    address: { street: r.addressStreet, city: r.addressCity, state: r.addressState, pinCode: r.addressPinCode },
    profileComplete: r.profileComplete,
    twoFactorEnabled: r.twoFactorEnabled,
    emailVerified: r.emailVerifiedAt !== null,
    assignedDoctors,
    pendingEmail,
  };
}

export const patientProfile: ProfileSpec<
  'patient',
  typeof PatientSignup,
  typeof PatientProfileUpdate,
  typeof PatientMeResponse,
  typeof PatientUpdateResponse
> = {
  role: 'patient',
  signupBody: PatientSignup,
  updateBody: PatientProfileUpdate,
  meResponse: PatientMeResponse,
  updateResponse: PatientUpdateResponse,

  async create(db, input, passwordHash) {
    const a = input.address;
    const [row] = await db
      .insert(patients)
      .values({
        name: input.name,
        email: input.email,
        passwordHash,
        dob: input.DOB ?? null,
        gender: input.gender,
        maritalStatus: input.maritalStatus,
        occupation: input.occupation,
        addressStreet: a.street ?? '',
        addressCity: a.city ?? '',
        addressState: a.state ?? '',
        addressPinCode: a.pinCode ?? '',
      })
      .returning({ id: patients.id });
    return row.id;
  },

  async load(db, id, now) {
    let query = meQueries.get(db);
    if (!query) {
      query = meQuery(db);
      meQueries.set(db, query);
    }
    const [me] = await query.execute({ id, now: now.toISOString() });
    if (!me) return undefined;
    return { patient: toPatient(me.row, me.assignedDoctors, me.pendingEmail), profileUrl: null };
  },

  async loadBySession(db, token, now, limits) {
    let query = meBySessionQueries.get(db);
    if (!query) {
      query = meBySessionQuery(db);
      meBySessionQueries.set(db, query);
    }
    const [me] = await query.execute(liveSessionParams(token, now, limits));
    if (!me) return undefined;
    return {
      session: { id: me.sessionId, role: 'patient', accountId: me.row.id, twoFactorEnabled: me.row.twoFactorEnabled },
      me: { patient: toPatient(me.row, me.assignedDoctors, me.pendingEmail), profileUrl: null },
    };
  },

  async update(db, id, input: Omit<Update, 'password' | 'currentPassword' | 'email'>, passwordHash, now) {
    const a = input.address ?? {};
    // Only the fields sent are set; the address is merged field by field.
    const set: Partial<typeof patients.$inferInsert> = {
      name: input.name,
      dob: input.DOB,
      gender: input.gender,
      maritalStatus: input.maritalStatus,
      occupation: input.occupation,
      addressStreet: a.street,
      addressCity: a.city,
      addressState: a.state,
      addressPinCode: a.pinCode,
      passwordHash,
      updatedAt: now,
    };
    await db.update(patients).set(set).where(eq(patients.id, id));
  },
};
