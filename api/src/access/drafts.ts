import { and, desc, eq, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { DRAFT_CHANGED, type Draft, type DraftForm, type DraftSave, type DraftSummary } from '@careloop/shared-contracts';
import { HttpError } from '../lib/errors';
import type { Clock } from '../adapters/clock';
import type { Db, Queryable } from '../adapters/db';
import { drafts } from '../db/schema';
import { assignedPatientIds } from './assignments';
import type { Caller } from './caller';
import { requireAssignedDoctor } from './policy';

/*
 * Drafts: a doctor's unsent work on a long form, kept by the api so that it finds them after an
 * automatic sign-out, in another tab or on another device.
 *
 *  - Only their author reaches them, and only while assigned to the patient (requireAssignedDoctor:
 *    a doctor whose access ended is told so, 403; any other patient is 404). The table's foreign
 *    key to the assignment deletes them when the access ends.
 *  - Not audited: a draft is the doctor's own unsent typing, not the patient's record; what the
 *    doctor sends is audited as it is written. The list carries no patient data (ids and times:
 *    the web app names the patients from the doctor's own, audited, profile).
 *  - Sending the form deletes its draft in the same transaction (discardDraft).
 */
export class DraftAccess {
  constructor(
    private readonly db: Db,
    private readonly caller: Caller,
    private readonly now: Date,
  ) {}

  private mine(form: DraftForm, patientId: string) {
    return and(eq(drafts.doctorId, this.caller.accountId), eq(drafts.form, form), eq(drafts.patientId, patientId));
  }

  /** The caller's drafts, the most recently saved first (only patients they are still assigned to). */
  async list(): Promise<DraftSummary[]> {
    const rows = await this.db
      .select({ form: drafts.form, patientId: drafts.patientId, step: drafts.step, savedAt: drafts.savedAt })
      .from(drafts)
      .where(
        and(
          eq(drafts.doctorId, this.caller.accountId),
          sql`${drafts.patientId} in (${assignedPatientIds(this.caller.accountId)})`,
        ),
      )
      .orderBy(desc(drafts.savedAt));
    return rows.map((r) => ({
      form: r.form as DraftForm,
      patientId: r.patientId,
      step: r.step,
      savedAt: r.savedAt.toISOString(),
    }));
  }

  async get(form: DraftForm, patientId: string): Promise<Draft | null> {
    await requireAssignedDoctor(this.db, this.caller, patientId);
    const [row] = await this.db.select().from(drafts).where(this.mine(form, patientId)).limit(1);
    if (!row) return null;
    return { form, patientId, step: row.step, savedAt: row.savedAt.toISOString(), values: row.values };
  }

  /**
   * Replaces the draft; the check and the write in one transaction, so no draft outlives a revoke.
   * With `basedOn`, only the draft the page last saw is replaced: another (a newer one from another
   * tab) is a 409, never overwritten unseen.
   */
  async save(form: DraftForm, patientId: string, draft: DraftSave): Promise<string> {
    return this.db.transaction(async (tx) => {
      await requireAssignedDoctor(tx, this.caller, patientId);
      if (draft.basedOn !== undefined) {
        const [onFile] = await tx
          .select({ savedAt: drafts.savedAt })
          .from(drafts)
          .where(this.mine(form, patientId))
          .for('update');
        const seen = draft.basedOn === null ? null : new Date(draft.basedOn).getTime();
        if ((onFile?.savedAt.getTime() ?? null) !== seen) throw new HttpError(409, DRAFT_CHANGED);
      }
      const row = {
        doctorId: this.caller.accountId,
        form,
        patientId,
        values: draft.values,
        step: draft.step,
        savedAt: this.now,
      };
      await tx
        .insert(drafts)
        .values(row)
        .onConflictDoUpdate({ target: [drafts.doctorId, drafts.form, drafts.patientId], set: row });
      return this.now.toISOString();
    });
  }

  /** Discards the draft, if any (of a patient no longer assigned too: there is none, the access took it). */
  async discard(form: DraftForm, patientId: string): Promise<void> {
    await discardDraft(this.db, this.caller.accountId, form, patientId);
  }
}

/** Deletes a doctor's draft of a form for a patient: by DraftAccess, and by sending the form (in its transaction). */
export async function discardDraft(db: Queryable, doctorId: string, form: DraftForm, patientId: string): Promise<void> {
  await db.delete(drafts).where(and(eq(drafts.doctorId, doctorId), eq(drafts.form, form), eq(drafts.patientId, patientId)));
}

export function draftAccessFor(deps: { db: { db: Db }; clock: Clock }, request: FastifyRequest): DraftAccess {
  if (!request.auth) throw new Error('route is missing an auth guard');
  return new DraftAccess(deps.db.db, { role: request.auth.role, accountId: request.auth.accountId }, deps.clock.now());
}
