import { z } from 'zod';
import { EntityId, RequiredText, Text, page } from './common';
import { MedicationAlert, OverrideReason } from './medication-safety';

/** POST /prescription/{patientId}: drug, dosage, route and frequency required (SPEC §5). */
export const PrescriptionCreate = z.strictObject({
  prescribedDrug: RequiredText(),
  dosage: RequiredText(),
  administrationRoute: RequiredText(),
  dosageFrequency: RequiredText(),
  allergies: z.array(Text(100).min(1)).max(50).default([]),
  /** why the doctor proceeds past a stop alert; required when the check finds one (else 409), kept in the audit log */
  overrideReason: OverrideReason.optional(),
});
export type PrescriptionCreate = z.input<typeof PrescriptionCreate>;

export const Prescription = z.object({
  _id: EntityId,
  prescribedDrug: z.string(),
  dosage: z.string(),
  administrationRoute: z.string(),
  dosageFrequency: z.string(),
  allergies: z.array(z.string()),
  /** the prescribing doctor's name */
  assignedBy: z.string(),
  patientId: EntityId,
  /** the name of the patient it is for, so a doctor's list can say whose it is */
  patientName: z.string(),
  createdAt: z.string(),
});
export type Prescription = z.infer<typeof Prescription>;

export const PrescriptionList = page(Prescription);
/**
 * The prescribing check's alerts, stop first: the patient's allergies (structured and read from the
 * free-text notes) and interactions with the patient's active medications. The product has no stop
 * date for a prescription, so every prescription on file counts as an active medication.
 */
export const PrescriptionCreated = Prescription.extend({ alerts: z.array(MedicationAlert) });

/** 409 of a create whose check found a stop alert and no override reason was given: nothing is written. */
export const OverrideRequired = z.object({ error: z.string(), alerts: z.array(MedicationAlert) });
export type OverrideRequired = z.infer<typeof OverrideRequired>;

/** GET /drug-alerts/{patientId}?drug=…: the warning a form shows before Finish. */
export const DrugAlertQuery = z.strictObject({
  drug: Text(200).min(1),
  /** allergies typed into the form, comma-separated, checked with the recorded ones */
  allergies: Text(2000).optional(),
});
export const DrugAlertResponse = z.object({
  alerts: z.array(MedicationAlert),
  /** the allergy substances checked (on file and typed) */
  allergies: z.array(z.string()),
  /** the drugs the interaction check compared with: every prescription on file (none has a stop date) */
  activeMedications: z.array(z.string()),
});
