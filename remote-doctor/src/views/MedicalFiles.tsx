import { useState } from 'react';
import { useDoctorProfile } from '@careloop/shared-auth';
import {
  Card,
  EmptyState,
  Heading,
  MedicalFileList,
  Page,
  PatientIdentity,
  PickerField,
  patientIdentityText,
  usePageSubject,
} from '@careloop/shared-ui';

/** /doctor/dashboard/medical-files: the files of one assigned patient at a time. */
export default function MedicalFiles() {
  const { data } = useDoctorProfile();
  const patients = data?.doctor.assignedPatients ?? [];
  // Chosen by id and labelled with date of birth and e-mail: two patients may share a name.
  const [patientId, setPatientId] = useState('');
  const chosen = patients.find((p) => p.patient === patientId) ?? patients[0];
  usePageSubject(chosen?.name);
  return (
    <Page>
      <Heading>Medical files</Heading>
      {data && patients.length === 0 && (
        <Card>
          <EmptyState>No assigned patients found</EmptyState>
        </Card>
      )}
      {chosen && (
        <>
          <PickerField
            label="Patient"
            value={chosen.patient}
            options={patients.map((p) => ({ value: p.patient, label: patientIdentityText(p) }))}
            onChange={setPatientId}
          />
          <Card aria-label="Showing files of">
            <PatientIdentity patient={chosen} />
          </Card>
          <MedicalFileList patientId={chosen.patient} />
        </>
      )}
    </Page>
  );
}
