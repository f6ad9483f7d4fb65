import { Link } from 'react-router-dom';
import { useDoctorProfile } from 'shared-auth';
import { Card, EmptyState, Heading, Page } from 'shared-ui';

/** /medical-record/create and /create-prescription: choose one of the doctor's assigned patients. */
export function PatientPicker({ title, base }: { title: string; base: string }) {
  const { data } = useDoctorProfile();
  const patients = data?.doctor.assignedPatients ?? [];
  return (
    <Page>
      <Card>
        <Heading>{title}</Heading>
        {data && patients.length === 0 && <EmptyState>No assigned patients found</EmptyState>}
        {patients.length > 0 && (
          <>
            <p>Choose a patient:</p>
            <ul aria-label="Assigned patients">
              {patients.map((p) => (
                <li key={p.patient}>
                  <Link to={`${base}/${p.patient}`}>{p.name}</Link>
                </li>
              ))}
            </ul>
          </>
        )}
      </Card>
    </Page>
  );
}
