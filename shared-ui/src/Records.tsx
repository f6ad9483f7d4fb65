import { useState } from 'react';
import { Link } from 'react-router-dom';
import styled from 'styled-components';
import type { MedicalRecord, Role } from 'shared-contracts';
import { useGenerateSummary, useMedicalRecord, useMedicalRecords } from 'shared-auth';
import { Banner, Button, Card, EmptyState, Heading } from './components';
import { ListDetail, PickList } from './ListDetail';
import { SummaryText } from './SummaryText';
import { theme } from './theme';

const Section = styled.section`
  margin-top: 1.25rem;
  h2 { font-size: 1.05rem; margin: 0 0 0.5rem; color: ${theme.color.primaryDark}; }
  dl { display: grid; grid-template-columns: max-content 1fr; gap: 0.3rem 1rem; margin: 0; }
  dt { color: ${theme.color.muted}; }
  dd { margin: 0; white-space: pre-wrap; overflow-wrap: anywhere; }
`;

const LABELS: Record<string, string> = {
  centralNervousSystem: 'Central nervous system', cardiovascularSystem: 'Cardiovascular system',
  gastrointestinalSystem: 'Gastrointestinal system', genitourinarySystem: 'Genitourinary system',
  musculoskeletalSystem: 'Musculoskeletal system', respiratorySystem: 'Respiratory system',
  bloodPressure: 'Blood pressure', pulse: 'Pulse', temperature: 'Temperature', respiratoryRate: 'Respiratory rate',
  bloodSugarLevel: 'Blood sugar level', Notes: 'Notes',
  completeBloodCount: 'Complete blood count', liverFunctionTests: 'Liver function tests',
  renalFunctionTests: 'Renal function tests', vitalMarkers: 'Vital markers', serumElectrolytes: 'Serum electrolytes',
  prothrombinTime: 'Prothrombin time', activatedPartialThromboplastinTime: 'Activated partial thromboplastin time',
  electrocardiogram: 'Electrocardiogram', chestXRay: 'Chest X-ray',
  prescribedDrug: 'Drug', dosage: 'Dosage', administrationRoute: 'Route', dosageFrequency: 'Frequency',
  historyOfPresentingComplaints: 'Presenting complaints', historyOfPresentingIllness: 'Presenting illness',
  pastSurgicalHistory: 'Past surgical history', pastMedicalHistory: 'Past medical history',
  familyHistory: 'Family history', drugHistory: 'Drug history', allergies: 'Allergies',
  gynecologicalHistory: 'Gynecological history', occupationalHistory: 'Occupational history',
  travelHistory: 'Travel history', socioeconomicHistory: 'Socioeconomic history',
};
const HISTORY = [
  'historyOfPresentingComplaints', 'historyOfPresentingIllness', 'pastMedicalHistory', 'pastSurgicalHistory',
  'drugHistory', 'allergies', 'familyHistory', 'gynecologicalHistory', 'occupationalHistory', 'travelHistory',
  'socioeconomicHistory',
] as const;

function Facts({ title, entries }: { title: string; entries: [string, string | number | null | undefined][] }) {
  return (
    <Section aria-label={title}>
      <h2>{title}</h2>
      <dl>
        {entries.map(([label, value]) => (
          <div key={label} style={{ display: 'contents' }}>
            <dt>{LABELS[label] ?? label}</dt>
            <dd>{value === '' || value === null || value === undefined ? '—' : String(value)}</dd>
          </div>
        ))}
      </dl>
    </Section>
  );
}

const ageText = (age: MedicalRecord['biodata']['age']) =>
  age ? `${age.years} years, ${age.months} months, ${age.days} days` : '—';

/** One record, read-only, for either role; a doctor may generate its summary. */
export function RecordDetail({ role, record }: { role: Role; record: MedicalRecord }) {
  const generate = useGenerateSummary();
  const { biodata, doctorInfo, examination } = record;
  const { generalPhysicalExamination: general, ...systems } = examination;
  const address = [biodata.address.street, biodata.address.city, biodata.address.state, biodata.address.pinCode].filter(Boolean).join(', ');
  return (
    <article aria-label={`Medical record: ${record.title}`}>
      <Heading as="h2">{record.title}</Heading>
      <Facts title="Biodata" entries={[
        ['Name', biodata.name], ['Email', biodata.email], ['Gender', biodata.gender], ['Age', ageText(biodata.age)],
        ['Occupation', biodata.occupation], ['Marital status', biodata.maritalStatus], ['Address', address],
        ['Mode of admission', biodata.modeOfAdmission], ['Date of admission', biodata.dateOfAdmission],
      ]} />
      <Facts title="Doctor information" entries={[['Name', doctorInfo.doctorName], ['Email', doctorInfo.doctorEmail]]} />
      <Facts title="History" entries={HISTORY.map((k) => [k, record[k]])} />
      <Facts title="Systemic history" entries={Object.entries(record.systemicHistory)} />
      <Facts title="Examination" entries={[...Object.entries(general), ...Object.entries(systems)]} />
      <Facts title="Investigations" entries={Object.entries(record.investigations)} />
      <Facts title="Treatment" entries={Object.entries(record.treatment)} />
      <Section aria-label="Summary">
        <h2>Summary</h2>
        {record.summary === null ? (
          role === 'doctor' ? (
            <>
              <p>No summary yet. Generate a decision-support summary of this record.</p>
              {generate.isError && <Banner tone="error">Could not generate the summary. Try again?</Banner>}
              <Button type="button" disabled={generate.isPending} onClick={() => generate.mutate(record._id)}>
                {generate.isPending ? 'Generating…' : 'Generate Summary'}
              </Button>
            </>
          ) : (
            <Banner tone="info">Summary not generated by the doctor yet.</Banner>
          )
        ) : record.summary.trim() === '' ? (
          <p>No summary provided.</p>
        ) : (
          <SummaryText markdown={record.summary} />
        )}
      </Section>
    </article>
  );
}

/** /patient/all-medical-records and /doctor/all-medical-records: page 1 and a detail pane. */
export function RecordList({ role }: { role: Role }) {
  const records = useMedicalRecords();
  const [selected, setSelected] = useState<string | null>(null);
  const items = records.data?.items ?? [];
  const current = items.find((r) => r._id === selected) ?? items[0];
  return (
    <>
      <Heading>Medical Records</Heading>
      {records.data && items.length === 0 && <Card><EmptyState>No medical record found</EmptyState></Card>}
      {items.length > 0 && (
        <ListDetail>
          <Card>
            <PickList aria-label="Medical records">
              {items.map((r) => (
                <li key={r._id}>
                  <button type="button" aria-current={r._id === current?._id} onClick={() => setSelected(r._id)}>
                    <strong>{r.title}</strong>
                    <small>
                      {role === 'doctor' ? `${r.biodata.name} · ` : `${r.doctorInfo.doctorName} · `}
                      {r.biodata.dateOfAdmission}
                    </small>
                  </button>
                </li>
              ))}
            </PickList>
          </Card>
          <Card>
            {current && <RecordDetail role={role} record={current} />}
            {current && <Link to={`/all-medical-records/${current._id}`}>Open on its own page</Link>}
          </Card>
        </ListDetail>
      )}
    </>
  );
}

/** /all-medical-records/{id}: one record, read-only. */
export function RecordPage({ role, id }: { role: Role; id: string }) {
  const record = useMedicalRecord(id);
  if (record.isError) return <Card><EmptyState>No medical record found</EmptyState></Card>;
  return <Card>{record.data && <RecordDetail role={role} record={record.data} />}</Card>;
}
