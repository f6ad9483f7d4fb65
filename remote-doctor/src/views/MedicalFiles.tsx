import { useState } from 'react';
import styled from 'styled-components';
import { useDoctorProfile } from 'shared-auth';
import { Card, EmptyState, Heading, MedicalFileList, Page, theme } from 'shared-ui';

const PatientPicker = styled.label`
  display: block;
  margin-bottom: 0.9rem;
  font-weight: 600;
  font-size: 0.95rem;

  select {
    display: block;
    width: 100%;
    margin-top: 0.3rem;
    padding: 0.55rem 0.7rem;
    border: 1px solid ${theme.color.border};
    border-radius: 8px;
    font: inherit;
    font-weight: 400;
    background: #fff;
  }
`;

/** /doctor/dashboard/medical-files: the files of one assigned patient at a time. */
export default function MedicalFiles() {
  const { data } = useDoctorProfile();
  const patients = data?.doctor.assignedPatients ?? [];
  const [name, setName] = useState('');
  const chosen = patients.find((p) => p.name === name) ?? patients[0];
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
          {/* a view filter, not a form: a plain controlled select */}
          <PatientPicker>
            Patient
            <select value={chosen.name} onChange={(e) => setName(e.target.value)}>
              {patients.map((p) => (
                <option key={p.patient} value={p.name}>
                  {p.name}
                </option>
              ))}
            </select>
          </PatientPicker>
          <MedicalFileList patientId={chosen.patient} />
        </>
      )}
    </Page>
  );
}
