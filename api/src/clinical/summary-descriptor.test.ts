import { MedicalRecord, MedicalRecordCreate } from '@careloop/shared-contracts';
import { assessment } from '../../../test-support/fixtures';
import { buildSummary } from './summary';

/*
 * The summary walks the record descriptor: a history field added there (here, with a module mock,
 * an immunisation history on the past-history step) reaches the summary's key history with no
 * edit of the summary, under its label, in the descriptor's order.
 */
jest.mock('../../../shared-contracts/src/record-descriptor', () => {
  const actual = jest.requireActual('../../../shared-contracts/src/record-descriptor');
  const RECORD_FIELDS = {
    ...actual.RECORD_FIELDS,
    medicalHistory: {
      ...actual.RECORD_FIELDS.medicalHistory,
      immunisationHistory: actual.field.note({ step: 'Past history', section: 'History', label: 'Immunisation history' }),
    },
  };
  const recordFields = actual.fieldsOf(RECORD_FIELDS);
  return {
    ...actual,
    RECORD_FIELDS,
    recordFields,
    recordSteps: actual.stepsOf(recordFields),
    recordSections: actual.sectionsOf(recordFields),
    recordDefaults: actual.defaultsOf(RECORD_FIELDS),
    recordField: (name: string) => recordFields.find((f: { name: string }) => f.name === name),
  };
});

const section = (md: string, heading: string) => md.split(`## ${heading}\n`)[1].split('\n\n')[0];

it('shows a history field added to the descriptor in the key history, in the descriptor’s order', () => {
  const parsed = MedicalRecordCreate.parse({
    medicalHistory: {
      title: 'Review',
      biodata: { modeOfAdmission: 'Outpatient' },
      systemicHistory: {},
      pastMedicalHistory: 'Asthma',
      socioeconomicHistory: 'Non-smoker',
      immunisationHistory: 'BCG 1990; tetanus 2020',
    },
    examination: { generalPhysicalExamination: {} },
    investigations: {},
    treatment: {},
  });
  const { title, biodata: _b, ...history } = parsed.medicalHistory;
  const record = MedicalRecord.parse({
    _id: '5a1c1e4e-8a4b-4f0e-9a39-2f1f5e1c0a44',
    patient: '6f1c1e4e-8a4b-4f0e-9a39-2f1f5e1c0a11',
    title,
    summary: null,
    summaryInfo: null,
    assessment: assessment(),
    biodata: {
      name: 'A',
      email: 'a@example.com',
      gender: 'Female',
      age: null,
      occupation: '',
      modeOfAdmission: 'Outpatient',
      dateOfAdmission: '2026-11-20',
      maritalStatus: '',
      address: { street: '', city: '', state: '', pinCode: '' },
    },
    doctorInfo: { doctorName: 'Dr. Lee', doctorEmail: 'lee@example.com' },
    ...history,
    examination: parsed.examination,
    investigations: parsed.investigations,
    treatment: parsed.treatment,
    createdAt: '2026-11-20T10:00:00.000Z',
  });
  expect(section(buildSummary(record).markdown, 'Key history').split('\n')).toEqual([
    '**Past medical history:** Asthma',
    '**Social history:** Non-smoker',
    '**Immunisation history:** BCG 1990; tetanus 2020',
  ]);
});
