import type { Role } from '@careloop/shared-contracts';
import { assign } from '../access';
import { bearer, signup, uniqueEmail, type TestApp } from './helpers';

/** Fixtures for the records and prescriptions suites. */

export interface Account {
  role: Role;
  id: string;
  name: string;
  email: string;
  token: string;
}

/** A signed-up account, its e-mail verified unless `{ verified: false }`. */
export async function account(
  t: TestApp,
  role: Role,
  body: Record<string, unknown> = {},
  options: { verified?: boolean; twoFactor?: boolean; registrationVerified?: boolean } = {},
): Promise<Account> {
  const name = (body.name as string) ?? `Test ${role}`;
  const email = (body.email as string) ?? uniqueEmail(role);
  const { token } = await signup(t.app, role, { ...body, name, email }, options);
  const me = await t.app.inject({ method: 'GET', url: `/${role}/me`, headers: bearer(token) });
  return { role, id: me.json()[role]._id, name, email, token };
}

/** Connects the pair as an accepted request would. */
export async function connect(t: TestApp, doctor: Account, patient: Account): Promise<void> {
  await assign(t.db.db, doctor.id, patient.id, t.clock.now());
}

/** A doctor and a patient assigned to them, the clock then set to `at`. */
export async function assignedPair(t: TestApp, at = '2026-03-01T09:00:00Z'): Promise<{ doctor: Account; patient: Account }> {
  const doctor = await account(t, 'doctor', { name: 'Dr Grace Hopper' });
  const patient = await account(t, 'patient', { name: 'Ada Lovelace' });
  await connect(t, doctor, patient);
  setClock(t, at);
  return { doctor, patient };
}

/** Moves the test clock to an instant (backwards too). */
export function setClock(t: TestApp, iso: string): void {
  t.clock.advance(new Date(iso).getTime() - t.clock.now().getTime());
}

/** The smallest valid record payload; every text defaults to '' and every vital to not measured. */
export function recordBody(
  over: {
    title?: string;
    allergies?: string;
    drug?: string;
    modeOfAdmission?: string;
    gpe?: Record<string, unknown>;
    history?: Record<string, unknown>;
  } = {},
) {
  return {
    medicalHistory: {
      title: over.title ?? 'Chest pain',
      biodata: { modeOfAdmission: over.modeOfAdmission ?? 'Emergency' },
      systemicHistory: {},
      ...(over.allergies !== undefined ? { allergies: over.allergies } : {}),
      ...over.history,
    },
    examination: { generalPhysicalExamination: { ...over.gpe } },
    investigations: {},
    treatment:
      over.drug !== undefined
        ? { prescribedDrug: over.drug, dosage: '500 mg', administrationRoute: 'oral', dosageFrequency: 'tds' }
        : {},
  };
}

export function prescriptionBody(over: Record<string, unknown> = {}) {
  return {
    prescribedDrug: 'Paracetamol',
    dosage: '1 g',
    administrationRoute: 'oral',
    dosageFrequency: 'qds',
    allergies: [],
    ...over,
  };
}

/** A record the doctor writes for the patient at `at` (the test clock moves there); its id. Fails the test unless 201. */
export async function writeRecordAt(
  t: TestApp,
  doctor: Account,
  patient: Account,
  at: string,
  body: Parameters<typeof recordBody>[0],
): Promise<string> {
  setClock(t, at);
  const res = await t.app.inject({
    method: 'POST',
    url: `/medicalhistory/${patient.id}`,
    headers: bearer(doctor.token),
    payload: recordBody(body),
  });
  if (res.statusCode !== 201) throw new Error(`record not written: ${res.statusCode} ${res.body}`);
  return res.json().record._id as string;
}
