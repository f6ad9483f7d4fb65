import { FHIR_MIME } from '@careloop/shared-contracts/routes';
import { call, fetchFile } from './client';

/** `careloop-health-record-2026-11-23.json`: the download's name, dated the person's own day. */
export function healthRecordFileName(extension: 'json' | 'pdf', now = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `careloop-health-record-${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}.${extension}`;
}

/** The signed-in patient's `$everything` Bundle (FHIR R4 JSON), as a file; audited by the api. */
export async function fetchHealthRecordFhir(): Promise<Blob> {
  const me = await call('patientMe');
  return fetchFile('fhirPatientEverything', { params: { id: me.patient._id }, accept: FHIR_MIME });
}

/** The signed-in patient's health record as a PDF; audited by the api. */
export const fetchHealthRecordPdf = (): Promise<Blob> => fetchFile('patientHealthRecordPdf', { accept: 'application/pdf' });
