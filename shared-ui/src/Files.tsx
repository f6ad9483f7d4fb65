import styled from 'styled-components';
import { useMedicalFiles } from '@careloop/shared-auth';
import { Card, EmptyState } from './components';
import { ClinicTimeZoneNote, useClinicTime } from './dates';
import { theme } from './theme';

/** "840 KB", "1.2 MB": a file's size as a person reads it (1 KB = 1,024 bytes, as file managers show). */
export function formatFileSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  const kb = bytes / 1024;
  if (kb < 1024) return `${Math.round(kb)} KB`;
  return `${(kb / 1024).toFixed(1)} MB`;
}

const Files = styled.ul`
  padding-left: 1.2rem;
  li + li {
    margin-top: 0.5rem;
  }
  small {
    display: block;
    color: ${theme.color.muted};
  }
`;

/** The PDFs of one patient, newest first, with when each was uploaded and its size: the caller's own, or (doctors) an assigned patient's. */
export function MedicalFileList({ patientId }: { patientId?: string }) {
  const files = useMedicalFiles(patientId);
  const { format } = useClinicTime();
  return (
    <Card>
      {files.data?.length === 0 && <EmptyState>No medical files were found</EmptyState>}
      {files.data && files.data.length > 0 && (
        <>
          <ClinicTimeZoneNote />
          <Files aria-label="Medical files">
            {files.data.map((f) => (
              <li key={f.url}>
                <a href={f.url} target="_blank" rel="noopener noreferrer">
                  {f.name}
                </a>
                <small>
                  Uploaded {format(f.uploadedAt)} · {formatFileSize(f.size)}
                </small>
              </li>
            ))}
          </Files>
        </>
      )}
    </Card>
  );
}
