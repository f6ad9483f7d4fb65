import { z } from 'zod';
import { EntityId, RequiredText, Text, page } from './common';
import { DrugAllergyAlert } from './records';

/** POST /prescription/{patientId}: drug, dosage, route and frequency required (SPEC §5). */
export const PrescriptionCreate = z.strictObject({
  prescribedDrug: RequiredText(),
  dosage: RequiredText(),
  administrationRoute: RequiredText(),
  dosageFrequency: RequiredText(),
  allergies: z.array(Text(100).min(1)).max(50).default([]),
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
export const PrescriptionCreated = Prescription.extend({ alerts: z.array(DrugAllergyAlert) });

/** GET /drug-alerts/{patientId}?drug=…: the warning a form shows before Finish. */
export const DrugAlertQuery = z.strictObject({
  drug: Text(200).min(1),
  /** allergies typed into the form, comma-separated, checked with the recorded ones */
  allergies: Text(2000).optional(),
});
export const DrugAlertResponse = z.object({ alerts: z.array(DrugAllergyAlert), allergies: z.array(z.string()) });
