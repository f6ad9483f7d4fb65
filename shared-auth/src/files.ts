import { useQuery } from '@tanstack/react-query';
import { PDF_MIME } from '@careloop/shared-contracts/routes';
import { call } from './client';

export const filesKey = (patientId?: string) => ['medical-files', patientId ?? 'mine'] as const;

/** GET /medical-record: the caller's own files, or an assigned patient's (doctors pass patientId). */
export const useMedicalFiles = (patientId?: string, enabled = true) =>
  useQuery({
    queryKey: filesKey(patientId),
    enabled,
    queryFn: async () => {
      const res = await call('listMedicalFiles', { query: { patientId } });
      return res.fileName.map((name, i) => ({
        name,
        url: res.presignedUrl[i],
        uploadedAt: res.uploadedAt[i],
        size: res.size[i],
      }));
    },
  });

export const requestUploadUrl = (patientId: string, fileName: string) =>
  call('uploadUrl', { params: { patientId }, query: { fileType: PDF_MIME, fileName } });

/**
 * PUT the file to its one-time URL, reporting progress (fetch cannot report upload progress).
 * Not through call(): the URL is the signed one requestUploadUrl answered, used as given, with no JSON answer.
 */
export function putFile(url: string, file: Blob, onProgress: (fraction: number) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('PUT', url);
    xhr.setRequestHeader('Content-Type', PDF_MIME);
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) onProgress(e.loaded / e.total);
    };
    xhr.onload = () => (xhr.status >= 200 && xhr.status < 300 ? resolve() : reject(new Error(`upload failed: ${xhr.status}`)));
    xhr.onerror = () => reject(new Error('upload failed: network'));
    xhr.send(file);
  });
}
