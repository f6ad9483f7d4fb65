import { useState } from 'react';
import { useNavigate, useParams } from 'react-router-dom';
import {
  MIN_PULSE, MIN_RESPIRATORY_RATE, MODES_OF_ADMISSION, type MedicalRecordCreate,
} from 'shared-contracts';
import { createMedicalRecord } from 'shared-auth';
import {
  DrugAlertList, EmptyState, Heading, MultiStepForm, Narrow, Page, SelectField, TextAreaField, TextField, splitList,
} from 'shared-ui';
import { useAssignedPatient } from './useAssignedPatient';
import { useDrugAlerts } from './useDrugAlerts';

type Form = {
  title: string;
  modeOfAdmission: (typeof MODES_OF_ADMISSION)[number] | '';
  [field: string]: string;
};

const HISTORY_STEPS: { title: string; fields: [key: string, label: string][] }[] = [
  { title: 'Presenting complaint', fields: [['historyOfPresentingComplaints', 'History of presenting complaints'], ['historyOfPresentingIllness', 'History of presenting illness']] },
  {
    title: 'Systemic history',
    fields: [
      ['sh.centralNervousSystem', 'Central nervous system'], ['sh.cardiovascularSystem', 'Cardiovascular system'],
      ['sh.gastrointestinalSystem', 'Gastrointestinal system'], ['sh.genitourinarySystem', 'Genitourinary system'],
      ['sh.musculoskeletalSystem', 'Musculoskeletal system'],
    ],
  },
  {
    title: 'Past history',
    fields: [
      ['pastSurgicalHistory', 'Past surgical history'], ['pastMedicalHistory', 'Past medical history'],
      ['familyHistory', 'Family history'], ['drugHistory', 'Drug history'], ['allergies', 'Allergies'],
    ],
  },
  {
    title: 'Personal history',
    fields: [
      ['gynecologicalHistory', 'Gynecological history'], ['occupationalHistory', 'Occupational history'],
      ['travelHistory', 'Travel history'], ['socioeconomicHistory', 'Socioeconomic history'],
    ],
  },
];
const SYSTEM_EXAMINATION: [string, string][] = [
  ['ex.respiratorySystem', 'Respiratory system'], ['ex.centralNervousSystem', 'Central nervous system'],
  ['ex.cardiovascularSystem', 'Cardiovascular system'], ['ex.gastrointestinalSystem', 'Gastrointestinal system'],
];
const INVESTIGATIONS: [string, string][] = [
  ['completeBloodCount', 'Complete blood count'], ['liverFunctionTests', 'Liver function tests'],
  ['renalFunctionTests', 'Renal function tests'], ['vitalMarkers', 'Vital markers'], ['serumElectrolytes', 'Serum electrolytes'],
  ['prothrombinTime', 'Prothrombin time'], ['activatedPartialThromboplastinTime', 'Activated partial thromboplastin time'],
  ['electrocardiogram', 'Electrocardiogram'], ['chestXRay', 'Chest X-ray'],
];
const TREATMENT: [string, string][] = [
  ['prescribedDrug', 'Prescribed drug'], ['dosage', 'Dosage'], ['administrationRoute', 'Administration route'],
  ['dosageFrequency', 'Dosage frequency'],
];

/** Picks `prefix.*` fields of the flat form into an object. */
const pick = (form: Form, prefix: string) =>
  Object.fromEntries(Object.entries(form).filter(([k]) => k.startsWith(prefix)).map(([k, v]) => [k.slice(prefix.length), v]));

function toPayload(form: Form): MedicalRecordCreate {
  const text = (k: string) => form[k] ?? '';
  return {
    medicalHistory: {
      title: form.title,
      biodata: { modeOfAdmission: form.modeOfAdmission as 'Emergency' | 'Outpatient' },
      systemicHistory: pick(form, 'sh.'),
      ...Object.fromEntries(HISTORY_STEPS.flatMap((s) => s.fields).filter(([k]) => !k.startsWith('sh.')).map(([k]) => [k, text(k)])),
    },
    examination: {
      generalPhysicalExamination: {
        bloodPressure: text('bloodPressure'), pulse: Number(form.pulse), temperature: text('temperature'),
        respiratoryRate: Number(form.respiratoryRate), bloodSugarLevel: text('bloodSugarLevel'), Notes: text('Notes'),
      },
      ...pick(form, 'ex.'),
    },
    investigations: Object.fromEntries(INVESTIGATIONS.map(([k]) => [k, text(k)])),
    treatment: Object.fromEntries(TREATMENT.map(([k]) => [k, text(k)])),
  } as MedicalRecordCreate;
}

/** /medical-record/create/{id}: the eight-step record form; submitted only on Finish. */
export default function CreateRecord() {
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const { loaded, patient } = useAssignedPatient(id);
  const [form, setForm] = useState<Form>({
    title: '', modeOfAdmission: '',
    pulse: String(MIN_PULSE), respiratoryRate: String(MIN_RESPIRATORY_RATE), temperature: '9',
  });
  const [failed, setFailed] = useState(false);
  const [busy, setBusy] = useState(false);
  const set = (key: string) => (value: string) => setForm((f) => ({ ...f, [key]: value }));
  const area = ([key, label]: [string, string]) => <TextAreaField key={key} label={label} value={form[key] ?? ''} onChange={set(key)} />;
  const alerts = useDrugAlerts(id, form.prescribedDrug ?? '', splitList(form.allergies ?? ''));

  async function finish() {
    setBusy(true);
    setFailed(false);
    try {
      const { record } = await createMedicalRecord(id, toPayload(form));
      navigate(`/all-medical-records/${record._id}`);
    } catch {
      setFailed(true);
    } finally {
      setBusy(false);
    }
  }

  if (loaded && !patient) return <Page><Narrow><EmptyState>No assigned patients found</EmptyState></Narrow></Page>;
  return (
    <Page>
      <Narrow style={{ maxWidth: 680 }}>
        <Heading>New medical record{patient ? ` for ${patient.name}` : ''}</Heading>
        <MultiStepForm
          label="New medical record"
          busy={busy}
          onFinish={() => void finish()}
          error={failed && 'Could not create record. Try again?'}
          steps={[
            {
              title: 'Record',
              content: (
                <>
                  <TextField label="Title" value={form.title} onChange={set('title')} required />
                  <SelectField label="Mode of admission" value={form.modeOfAdmission} options={MODES_OF_ADMISSION} onChange={set('modeOfAdmission')} required />
                </>
              ),
            },
            ...HISTORY_STEPS.map((s) => ({ title: s.title, content: <>{s.fields.map(area)}</> })),
            {
              title: 'General physical examination',
              content: (
                <>
                  <TextField label="Blood pressure" value={form.bloodPressure ?? ''} onChange={set('bloodPressure')} placeholder="120/80" />
                  <TextField label="Pulse" type="number" min={MIN_PULSE} value={form.pulse} onChange={set('pulse')} required />
                  <TextField label="Temperature" value={form.temperature} onChange={set('temperature')} />
                  <TextField label="Respiratory rate" type="number" min={MIN_RESPIRATORY_RATE} value={form.respiratoryRate} onChange={set('respiratoryRate')} required />
                  <TextField label="Blood sugar level" value={form.bloodSugarLevel ?? ''} onChange={set('bloodSugarLevel')} />
                  <TextAreaField label="Notes" value={form.Notes ?? ''} onChange={set('Notes')} />
                </>
              ),
            },
            { title: 'System examination', content: <>{SYSTEM_EXAMINATION.map(area)}</> },
            {
              title: 'Investigations and treatment',
              content: (
                <>
                  {INVESTIGATIONS.map(area)}
                  {TREATMENT.map(([key, label]) => <TextField key={key} label={label} value={form[key] ?? ''} onChange={set(key)} />)}
                  {alerts.length > 0 && <DrugAlertList alerts={alerts} />}
                </>
              ),
            },
          ]}
        />
      </Narrow>
    </Page>
  );
}
