import type { Role } from '@careloop/shared-contracts';
import type { z } from 'zod';
import type { Db, Queryable } from '../../adapters/db';
import type { Session, SessionLimits } from '../account/auth/sessions';

/**
 * What differs between the patient and the doctor account: schemas from the shared contract and
 * the table mapping. Routes are written once against this and registered for each role.
 */
export interface ProfileSpec<
  R extends Role,
  Signup extends z.ZodType<{ password: string }>,
  Update extends z.ZodType<{ password?: string }>,
  Me extends z.ZodType,
  UpdateRes extends z.ZodType,
> {
  role: R;
  signupBody: Signup;
  updateBody: Update;
  meResponse: Me;
  updateResponse: UpdateRes;
  /** Inserts the account; returns its id. A duplicate e-mail surfaces as a unique violation. */
  create(db: Queryable, input: z.output<Signup>, passwordHash: string): Promise<string>;
  /**
   * `now`: a pending new e-mail counts only while its link is alive. `rules.doctorVerification`
   * (DOCTOR_VERIFICATION, on unless told): whether a doctor's requests wait for their registration.
   */
  load(db: Queryable, id: string, now: Date, rules?: { doctorVerification: boolean }): Promise<z.output<Me> | undefined>;
  /**
   * GET /{role}/me in one round trip: the live session of the token (this role's only) and its
   * account's profile in one statement; undefined when either is missing (the guard then decides).
   */
  loadBySession?(
    db: Db,
    token: string,
    now: Date,
    limits: SessionLimits,
  ): Promise<{ session: Session; me: z.output<Me> } | undefined>;
  /**
   * Sets only the fields present (undefined ones are skipped); passwordHash when it changes. Never
   * the e-mail: a new one is in force only once verified (email-verification/tokens.ts).
   */
  update(
    db: Queryable,
    id: string,
    input: Omit<z.output<Update>, 'password' | 'currentPassword' | 'email'>,
    passwordHash: string | undefined,
    now: Date,
  ): Promise<void>;
}

/** Either role's spec; handlers stay role-agnostic and the contract schemas still validate. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any role's schemas, checked where each spec is declared
export type AnyProfileSpec = ProfileSpec<Role, any, any, any, any>;
