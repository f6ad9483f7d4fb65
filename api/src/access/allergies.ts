import type { FastifyRequest } from 'fastify';
import {
  ALLERGY_NOT_FOUND,
  ALLERGY_NOTE_NOT_FOUND,
  ALLERGY_NOTE_REVIEWED,
  type AllergyIntolerance,
  type AllergyIntoleranceCreate,
  type AllergyIntoleranceWrite,
  type AllergyList,
  type AllergyReport,
} from '@careloop/shared-contracts';
import type { z } from 'zod';
import type { Db, Queryable } from '../adapters/db';
import { codeSubstance, readAllergyText, type AllergyEntry } from '../clinical';
import { HttpError } from '../lib/errors';
import {
  allergyNotesOf,
  allergyRowsOf,
  findAllergy,
  insertAllergies,
  isReviewed,
  noteKey,
  reviewedKeys,
  toAllergyIntolerances,
  unreviewedEntries,
  updateAllergy,
  type AllergyInsert,
} from './allergy-entries';
import type { AppDeps } from '../deps';
import { actorOf, audit, type AuditActor } from './audit';
import { requireAssignedDoctor, requireSee, type Caller } from './policy';

type Write = z.output<typeof AllergyIntoleranceWrite>;

/** The stored columns of a written entry; the api codes the substance from its vocabulary. */
function columnsOf(body: Write) {
  const coded = codeSubstance(body.substance.text);
  return {
    substanceText: body.substance.text,
    substanceCode: coded.code ?? null,
    type: body.type,
    category: body.category,
    criticality: body.criticality,
    reactions: body.reactions,
    clinicalStatus: body.clinicalStatus,
    verificationStatus: body.verificationStatus,
    note: body.note ? body.note : null,
    statusReason: body.statusReason ? body.statusReason : null,
  };
}

/** Two entries name the same substance: same code, or the same text when either is uncoded. */
function sameSubstance(a: { text: string; code?: string | null }, b: { text: string; code?: string | null }) {
  if (a.code && b.code) return a.code === b.code;
  return noteKey(a.text) === noteKey(b.text);
}

/**
 * A patient's allergy list, for one request's caller: the patient reads their own and reports
 * one (always unconfirmed); an assigned doctor reads, adds, edits, confirms and refutes. Anyone
 * else is answered 404, as for a missing patient or entry. Every read and write is audited in its
 * transaction (entity 'allergy_intolerance').
 */
export class AllergyAccess {
  private readonly caller: Caller;

  constructor(
    private readonly db: Db,
    private readonly actor: AuditActor,
  ) {
    this.caller = { accountId: actor.actorId, role: actor.actorRole };
  }

  /**
   * Structured entries newest first, then the unreviewed entries read from free-text notes, and
   * every note verbatim: a note the reader finds no substance in ("NKDA", a misspelling) is still shown.
   */
  async list(patientId: string): Promise<AllergyList> {
    return this.db.transaction(async (tx) => {
      await requireSee(tx, this.caller, patientId);
      const rows = await allergyRowsOf(tx, patientId);
      const notes = await allergyNotesOf(tx, patientId);
      await this.audit(tx, 'list', patientId);
      return {
        items: [...(await toAllergyIntolerances(tx, rows)), ...unreviewedEntries(patientId, notes, reviewedKeys(rows))],
        notes: notes.map((n) => ({ text: n.text, source: n.source, recordedBy: n.doctorName, recordedAt: n.at.toISOString() })),
      };
    });
  }

  /**
   * Assigned doctor: a new entry. With `reviews`, it reviews that free-text note of the patient's;
   * the note's other substances (a note may name several) are kept as unconfirmed entries in the
   * same transaction, recorded by the note's author, so reviewing one never silently drops another.
   */
  async create(patientId: string, body: z.output<typeof AllergyIntoleranceCreate>): Promise<AllergyIntolerance> {
    return this.db.transaction(async (tx) => {
      await requireAssignedDoctor(tx, this.caller, patientId);
      const now = this.actor.at;
      const own = { patientId, recordedById: this.caller.accountId, recordedByRole: 'doctor' as const };
      const entry: AllergyInsert = { ...own, ...columnsOf(body), recordedAt: now, updatedAt: now };
      const others: AllergyInsert[] = [];
      if (body.reviews !== undefined) {
        const key = noteKey(body.reviews);
        const note = (await allergyNotesOf(tx, patientId)).find((n) => n.key === key);
        if (!note) throw new HttpError(400, ALLERGY_NOTE_NOT_FOUND);
        if (await isReviewed(tx, patientId, key)) throw new HttpError(409, ALLERGY_NOTE_REVIEWED);
        entry.reviews = key;
        const written = { text: entry.substanceText, code: entry.substanceCode };
        for (const read of readAllergyText(note.text).filter((e) => !sameSubstance(e.substance, written))) {
          others.push(keptFromNote(read, note, patientId, now));
        }
      }
      const [row, ...kept] = await insertAllergies(tx, [entry, ...others]);
      for (const r of [row, ...kept]) await this.audit(tx, 'create', patientId, r.id, r === row ? body.statusReason : undefined);
      const [created] = await toAllergyIntolerances(tx, [row]);
      return created;
    });
  }

  /** Assigned doctor: edit, confirm or refute (verificationStatus 'refuted'); recorder and time stay. */
  async update(id: string, body: Write): Promise<AllergyIntolerance> {
    return this.db.transaction(async (tx) => {
      const existing = await findAllergy(tx, id);
      if (!existing) throw new HttpError(404, ALLERGY_NOT_FOUND);
      await requireAssignedDoctor(tx, this.caller, existing.patientId, ALLERGY_NOT_FOUND);
      const row = await updateAllergy(tx, id, { ...columnsOf(body), updatedAt: this.actor.at });
      await this.audit(tx, 'update', existing.patientId, id, body.statusReason);
      const [updated] = await toAllergyIntolerances(tx, [row]);
      return updated;
    });
  }

  /** The patient themself: a reported allergy, unconfirmed whatever was sent. */
  async report(body: z.output<typeof AllergyReport>): Promise<AllergyIntolerance> {
    if (this.caller.role !== 'patient') throw new HttpError(403, 'Forbidden');
    const patientId = this.caller.accountId;
    return this.db.transaction(async (tx) => {
      const now = this.actor.at;
      const [row] = await insertAllergies(tx, [
        {
          patientId,
          recordedById: patientId,
          recordedByRole: 'patient',
          ...columnsOf(body),
          verificationStatus: 'unconfirmed',
          recordedAt: now,
          updatedAt: now,
        },
      ]);
      await this.audit(tx, 'create', patientId, row.id);
      const [reported] = await toAllergyIntolerances(tx, [row]);
      return reported;
    });
  }

  /** `reason`: why an entry was refuted, made inactive or resolved (the audit row keeps it). */
  private audit(tx: Queryable, action: 'list' | 'create' | 'update', patientId: string, entityId?: string, reason?: string) {
    return audit(tx, {
      ...this.actor,
      action,
      entity: 'allergy_intolerance',
      entityId: entityId ?? null,
      patientId,
      detail: reason ?? null,
    });
  }
}

/** Another substance of a reviewed note, kept as it was read: unconfirmed, by the note's author. */
function keptFromNote(
  read: AllergyEntry,
  note: { text: string; key: string; doctorId: string; at: Date },
  patientId: string,
  now: Date,
): AllergyInsert {
  return {
    patientId,
    substanceText: read.substance.text,
    substanceCode: read.substance.code ?? null,
    type: read.type,
    category: 'medication',
    criticality: read.criticality,
    reactions: read.reactions,
    clinicalStatus: read.clinicalStatus,
    verificationStatus: 'unconfirmed',
    note: `Read from the note "${note.text}"`.slice(0, 1000),
    reviews: note.key,
    recordedById: note.doctorId,
    recordedByRole: 'doctor',
    recordedAt: note.at,
    updatedAt: now,
  };
}

/** The allergy list as a guarded request's caller may reach it, timed by the app's clock. */
export function allergyAccessFor(deps: Pick<AppDeps, 'db' | 'clock'>, request: FastifyRequest): AllergyAccess {
  return new AllergyAccess(deps.db.db, actorOf(request, deps.clock));
}
