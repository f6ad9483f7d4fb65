import { useState } from 'react';
import { useDoctorProfile } from 'shared-auth';
import { Card, EmptyState, Heading, MedicalFileList, Page, SelectField } from 'shared-ui';

/** /doctor/dashboard/medical-files: the files of one assigned patient at a time. */
export default function MedicalFiles() {
  const { data } = useDoctorProfile();
  const patients = data?.doctor.assignedPatients ?? [];
  const [name, setName] = useState('');
  const chosen = patients.find((p) => p.name === name) ?? patients[0];
  return (
    <Page>
      <Heading>Medical files</Heading>
      {data && patients.length === 0 && <Card><EmptyState>No assigned patients found</EmptyState></Card>}
      {chosen && (
        <>
          <SelectField label="Patient" value={chosen.name} options={patients.map((p) => p.name)} onChange={setName} />
          <MedicalFileList patientId={chosen.patient} />
        </>
      )}
    </Page>
  );
}
