import type { AllergyIntoleranceWrite } from '@careloop/shared-contracts';
import type { Account } from './clinical';
import { bearer, type TestApp } from './helpers';

/** A valid allergy entry: a confirmed penicillin allergy with anaphylaxis, unless overridden. */
export function allergyBody(over: Partial<AllergyIntoleranceWrite> & { reviews?: string } = {}) {
  return {
    substance: { text: 'Penicillin' },
    type: 'allergy',
    category: 'medication',
    criticality: 'high',
    reactions: [{ manifestation: 'Anaphylaxis', severity: 'severe' }],
    clinicalStatus: 'active',
    verificationStatus: 'confirmed',
    ...over,
  };
}

/** A doctor's new entry on the patient's list; its id. */
export async function newAllergy(t: TestApp, doctor: Account, patientId: string, over: Parameters<typeof allergyBody>[0] = {}) {
  const res = await t.app.inject({
    method: 'POST',
    url: `/allergies/${patientId}`,
    headers: bearer(doctor.token),
    payload: allergyBody(over),
  });
  if (res.statusCode !== 201) throw new Error(`newAllergy: ${res.statusCode} ${res.body.slice(0, 300)}`);
  return res.json()._id as string;
}
