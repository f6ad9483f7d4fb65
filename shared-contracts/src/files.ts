import { z } from 'zod';
import { PDF_MIME } from './constants';
import { EntityId, Text } from './common';

/** GET /medical-record/{patientId}?fileType=&fileName=: a one-time URL to PUT one PDF to. */
export const UploadUrlQuery = z.strictObject({
  fileType: z.literal(PDF_MIME, { error: 'Only PDF files are accepted' }),
  fileName: Text(255).min(1, { error: 'A file name is required' }),
});
export const UploadUrlResponse = z.object({ uploadUrl: z.string(), key: z.string() });
export type UploadUrlResponse = z.infer<typeof UploadUrlResponse>;

/** GET /medical-record: a patient's own files, or (patientId) an assigned patient's, for a doctor. */
export const MedicalFilesQuery = z.strictObject({ patientId: EntityId.optional() });
export const MedicalFilesResponse = z.object({
  /** expiring URLs that open each PDF inline, in the same order as fileName */
  presignedUrl: z.array(z.string()),
  fileName: z.array(z.string()),
  /** when each file was stored (ISO date-time), same order */
  uploadedAt: z.array(z.string()),
  /** each file's size in bytes, same order */
  size: z.array(z.number().int().nonnegative()),
});
export type MedicalFilesResponse = z.infer<typeof MedicalFilesResponse>;

/** The local-disk storage's signed URLs, `/files/{patientId}/{file}?expires&sig[&name&by]` (no bearer: the signature is the authority). */
export const SignedFileParams = z.object({ patientId: z.string().max(64), file: z.string().max(64) });
export const SignedFileQuery = z.object({
  expires: z.string().max(20).optional(),
  sig: z.string().max(128).optional(),
  name: z.string().max(1024).optional(),
  /** who a download URL was issued to (`<role>.<accountId>`), covered by the signature */
  by: z.string().max(64).optional(),
});
export const FileStored = z.object({ message: z.string(), key: z.string() });
