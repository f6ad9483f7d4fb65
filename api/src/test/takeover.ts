import fs from 'node:fs';
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import { UploadUrlResponse } from '@careloop/shared-contracts';
import {
  allergyIntolerances,
  assignments,
  connectionRequests,
  medicalFiles,
  patients,
  recoveryCodes,
  sessions,
} from '../db/schema';
import { PDF, local } from './files';
import { bearer, type TestApp } from './helpers';

/**
 * What a squatter plants in an unverified patient account before its owner takes it over: a stored
 * file, an allergy, profile fields, a recovery-code row, a pending connection request to `doctorId`.
 * Returns what to look for afterwards.
 */
export async function plantInPatient(t: TestApp, patient: { id: string; token: string }, doctorId: string) {
  const upload = await t.app.inject({
    method: 'GET',
    url: `/medical-record/${patient.id}?fileType=application%2Fpdf&fileName=planted.pdf`,
    headers: bearer(patient.token),
  });
  if (upload.statusCode !== 200) throw new Error(`upload url: ${upload.statusCode} ${upload.body}`);
  const { uploadUrl, key } = UploadUrlResponse.parse(upload.json());
  const put = await t.app.inject({
    method: 'PUT',
    url: local(uploadUrl),
    headers: { 'content-type': 'application/pdf' },
    payload: PDF,
  });
  if (put.statusCode >= 300) throw new Error(`upload: ${put.statusCode} ${put.body}`);
  const filePath = path.join(t.dataDir, 'files', key);
  if (!fs.existsSync(filePath)) throw new Error('the planted file was not stored');
  const now = t.clock.now();
  await t.db.db.insert(allergyIntolerances).values({
    patientId: patient.id,
    substanceText: 'Planted penicillin',
    type: 'allergy',
    category: 'medication',
    criticality: 'high',
    clinicalStatus: 'active',
    verificationStatus: 'confirmed',
    recordedById: patient.id,
    recordedByRole: 'patient',
    recordedAt: now,
    updatedAt: now,
  });
  await t.db.db
    .update(patients)
    .set({ occupation: 'Planted occupation', addressCity: 'Planted city', dob: '1970-01-01' })
    .where(eq(patients.id, patient.id));
  await t.db.db.insert(recoveryCodes).values({ role: 'patient', accountId: patient.id, codeHash: 'planted', createdAt: now });
  await t.db.db
    .insert(connectionRequests)
    .values({ doctorId, patientId: patient.id, initiatedBy: 'patient', status: 'pending', createdAt: now });
  await t.db.db.insert(assignments).values({ doctorId, patientId: patient.id, createdAt: now });
  return { key, filePath };
}

/** What is left of the planted things (all zero / empty / defaults once wiped). */
export async function plantedLeft(t: TestApp, patientId: string, planted: { key: string; filePath: string }) {
  const db = t.db.db;
  const [row] = await db.select().from(patients).where(eq(patients.id, patientId));
  return {
    files: (await db.select().from(medicalFiles).where(eq(medicalFiles.storageKey, planted.key))).length,
    stored: fs.existsSync(planted.filePath),
    allergies: (await db.select().from(allergyIntolerances).where(eq(allergyIntolerances.patientId, patientId))).length,
    recoveryCodes: (
      await db
        .select()
        .from(recoveryCodes)
        .where(and(eq(recoveryCodes.role, 'patient'), eq(recoveryCodes.accountId, patientId)))
    ).length,
    requests: (await db.select().from(connectionRequests).where(eq(connectionRequests.patientId, patientId))).length,
    assignments: (await db.select().from(assignments).where(eq(assignments.patientId, patientId))).length,
    liveSessions: (await db.select().from(sessions).where(eq(sessions.accountId, patientId))).filter((s) => !s.revokedAt).length,
    profile: row && { occupation: row.occupation, city: row.addressCity, dob: row.dob, verified: row.emailVerifiedAt !== null },
  };
}

export const WIPED = {
  files: 0,
  stored: false,
  allergies: 0,
  recoveryCodes: 0,
  requests: 0,
  assignments: 0,
  liveSessions: 0,
};
