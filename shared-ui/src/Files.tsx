import { useMedicalFiles } from '@careloop/shared-auth';
import { Card, EmptyState } from './components';

/** The PDF links of one patient: the caller's own, or (doctors) an assigned patient's. */
export function MedicalFileList({ patientId }: { patientId?: string }) {
  const files = useMedicalFiles(patientId);
  return (
    <Card>
      {files.data?.length === 0 && <EmptyState>No medical files were found</EmptyState>}
      {files.data && files.data.length > 0 && (
        <ul aria-label="Medical files">
          {files.data.map((f) => (
            <li key={f.url}>
              <a href={f.url} target="_blank" rel="noopener noreferrer">
                {f.name}
              </a>
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}
