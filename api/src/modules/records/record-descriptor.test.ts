import {
  MedicalRecord,
  MedicalRecordCreate,
  RECORD_FIELDS,
  RECORD_STEPS,
  defaultsOf,
  field,
  fieldsOf,
  payloadSchemaOf,
  readSchemaOf,
  recordFields,
  recordSections,
  recordSteps,
  sectionsOf,
  stepsOf,
  summaryLabelOf,
  valueIn,
  vitalSigns,
} from '@careloop/shared-contracts';
import { HAS_VITALS_KEYS } from '../../db/schema';
import { buildSummary } from '../../clinical/summary';
import { assessment as emptyAssessment } from '../../../../test-support/fixtures';

/** A record's stored assessment, nothing found (what assessRecord gives a record without vitals or alerts). */
const assessment = emptyAssessment();

const minimal = {
  medicalHistory: { title: 'Review', biodata: { modeOfAdmission: 'Outpatient' }, systemicHistory: {} },
  examination: { generalPhysicalExamination: {} },
  investigations: {},
  treatment: {},
};

/** The record descriptor with one more field: what a future clinical issue does, one line. */
const withOxygen = {
  ...RECORD_FIELDS,
  examination: {
    ...RECORD_FIELDS.examination,
    generalPhysicalExamination: {
      ...RECORD_FIELDS.examination.generalPhysicalExamination,
      capillaryRefill: field.number({
        step: 'General physical examination',
        section: 'Examination',
        label: 'Capillary refill',
        unit: 's',
        min: 1,
        max: 10,
        default: 2,
      }),
    },
  },
};

describe('the record descriptor', () => {
  it('declares each field once, each on one of the eight steps, names unique', () => {
    const names = recordFields.map((f) => f.name);
    expect(new Set(names).size).toBe(names.length);
    expect(names).toHaveLength(48); // title, mode of admission, 11 history texts, 5 systemic, 13 vitals, 4 systems, 9 investigations, 4 treatment
    expect(recordSteps.map((s) => s.title)).toEqual([...RECORD_STEPS]);
    expect(recordSteps.flatMap((s) => s.fields.map((f) => f.name)).sort()).toEqual([...names].sort());
    for (const step of recordSteps) expect(step.fields.length).toBeGreaterThan(0);
  });

  it('puts every field but the title and the mode of admission in one detail section', () => {
    const inSections = recordSections.flatMap((s) => s.fields.map((f) => f.name));
    expect(inSections.sort()).toEqual(
      recordFields
        .map((f) => f.name)
        .filter((n) => !['medicalHistory.title', 'medicalHistory.biodata.modeOfAdmission'].includes(n))
        .sort(),
    );
  });

  it('derives the creation schema: vitals absent are not measured (never SPEC §5\'s defaults 78, 16, "9")', () => {
    const parsed = MedicalRecordCreate.parse(minimal);
    expect(parsed.examination.generalPhysicalExamination).toEqual({
      bloodPressure: '',
      pulse: null,
      temperature: '',
      weight: null,
      height: null,
      respiratoryRate: null,
      oxygenSaturation: null,
      spo2Scale: 1,
      supplementalOxygen: null,
      consciousness: null,
      observedAt: '',
      bloodSugarLevel: '',
      Notes: '',
    });
    expect(parsed.treatment).toEqual({ prescribedDrug: '', dosage: '', administrationRoute: '', dosageFrequency: '' });
    const errors = (payload: unknown) => MedicalRecordCreate.safeParse(payload).error?.issues.map((i) => i.message) ?? [];
    expect(errors({ ...minimal, medicalHistory: { ...minimal.medicalHistory, title: '   ' } })).toEqual(['Title is required']);
    expect(errors({ ...minimal, examination: { generalPhysicalExamination: { pulse: 19 } } })).toEqual([
      'Pulse must be at least 20',
    ]);
    expect(errors({ ...minimal, examination: { generalPhysicalExamination: { respiratoryRate: 'fast' } } })).toEqual([
      'Respiratory rate must be a number',
    ]);
    expect(errors({ ...minimal, treatment: { prescribedDrug: 'x'.repeat(201) } })).toHaveLength(1);
    // strict at every level: an unknown key is refused
    expect(MedicalRecordCreate.safeParse({ ...minimal, treatment: { brand: 'x' } }).success).toBe(false);
    expect(
      MedicalRecordCreate.safeParse({
        ...minimal,
        medicalHistory: { ...minimal.medicalHistory, biodata: { modeOfAdmission: 'Walk-in' } },
      }).success,
    ).toBe(false);
  });

  it('derives the read model: a stored record is read with the same fields', () => {
    const parsed = MedicalRecordCreate.parse(minimal);
    const { title, biodata: _b, ...history } = parsed.medicalHistory;
    const stored = {
      _id: '5a1c1e4e-8a4b-4f0e-9a39-2f1f5e1c0a44',
      patient: '6f1c1e4e-8a4b-4f0e-9a39-2f1f5e1c0a11',
      title,
      summary: null,
      summaryInfo: null,
      assessment,
      biodata: {
        name: 'A',
        email: 'a@example.com',
        gender: 'Female',
        age: null,
        occupation: '',
        modeOfAdmission: 'Outpatient',
        dateOfAdmission: '2026-11-20',
        maritalStatus: 'Married',
        address: { street: '', city: '', state: '', pinCode: '' },
      },
      doctorInfo: { doctorName: 'Dr. Lee', doctorEmail: 'lee@example.com' },
      ...history,
      examination: parsed.examination,
      investigations: parsed.investigations,
      treatment: parsed.treatment,
      createdAt: '2026-11-20T10:00:00.000Z',
    };
    const record = MedicalRecord.parse(stored);
    // every field is found in the stored record at its read path
    for (const f of recordFields) expect(valueIn(record, f)).toBeDefined();
    expect(
      valueIn(
        record,
        recordFields.find((f) => f.name === 'examination.generalPhysicalExamination.pulse')!,
      ),
    ).toBeNull();
    const { allergies: _a, ...withoutAllergies } = stored;
    expect(MedicalRecord.safeParse(withoutAllergies).success).toBe(false);
    // the assessment is part of every record read: a record without one is not a record
    const { assessment: _x, ...withoutAssessment } = stored;
    expect(MedicalRecord.safeParse(withoutAssessment).success).toBe(false);
  });

  it('gives each declared vital sign one field of the examination, in the declared order, under its one label', () => {
    const gpe = recordFields.filter((f) => f.name.startsWith('examination.generalPhysicalExamination.'));
    expect(gpe.slice(0, vitalSigns().length).map((f) => [f.readPath.at(-1), f.label])).toEqual(
      vitalSigns().map((v) => [v.key, v.label]),
    );
    expect(gpe.slice(vitalSigns().length).map((f) => f.label)).toEqual(['Observation time', 'Notes']);
  });

  it('stores "has vital signs" over every declared vital sign of an observation set but the qualifier (a new one needs a migration)', () => {
    expect([...HAS_VITALS_KEYS]).toEqual(
      vitalSigns().flatMap((v) => ((v.kind === 'choice' && v.qualifies) || v.observationSet === false ? [] : [v.key])),
    );
    // a weight or a height alone is no set of observations (api/CLINICAL.md)
    expect(
      vitalSigns()
        .filter((v) => v.observationSet === false)
        .map((v) => v.key),
    ).toEqual(['weight', 'height']);
  });

  it('labels the read-only views with the short label and the summary with its own where they differ', () => {
    const byName = (n: string) => recordFields.find((f) => f.name === n)!;
    expect(byName('treatment.prescribedDrug')).toMatchObject({ label: 'Prescribed drug', shortLabel: 'Drug' });
    expect(summaryLabelOf(byName('medicalHistory.socioeconomicHistory'))).toBe('Social history');
    expect(summaryLabelOf(byName('medicalHistory.historyOfPresentingIllness'))).toBe('History of presenting illness');
    expect(summaryLabelOf(byName('medicalHistory.historyOfPresentingComplaints'))).toBe('Presenting complaints');
  });

  it('adding a field is one line: the schema accepts it with its default and limits, the form step and the detail section list it', () => {
    const schema = payloadSchemaOf(withOxygen);
    expect(schema.parse(minimal).examination.generalPhysicalExamination.capillaryRefill).toBe(2);
    const withValue = { ...minimal, examination: { generalPhysicalExamination: { capillaryRefill: '3' } } };
    expect(schema.parse(withValue).examination.generalPhysicalExamination.capillaryRefill).toBe(3);
    expect(
      schema.safeParse({ ...minimal, examination: { generalPhysicalExamination: { capillaryRefill: 0 } } }).error?.issues[0]
        .message,
    ).toBe('Capillary refill must be at least 1');
    // the real contract does not know it yet
    expect(MedicalRecordCreate.safeParse(withValue).success).toBe(false);

    const fields = fieldsOf(withOxygen);
    const step = stepsOf(fields).find((s) => s.title === 'General physical examination')!;
    expect(step.fields.map((f) => f.label)).toEqual([
      'Blood pressure',
      'Pulse',
      'Temperature',
      'Respiratory rate',
      'SpO2',
      'SpO2 scale',
      'Air or oxygen',
      'Consciousness',
      'Blood sugar level',
      'Weight',
      'Height',
      'Observation time',
      'Notes',
      'Capillary refill',
    ]);
    expect(
      sectionsOf(fields)
        .find((s) => s.title === 'Examination')!
        .fields.map((f) => f.name),
    ).toContain('examination.generalPhysicalExamination.capillaryRefill');
    expect(defaultsOf(withOxygen).examination?.generalPhysicalExamination?.capillaryRefill).toBe(2);
    expect(readSchemaOf(withOxygen.examination).shape.generalPhysicalExamination.shape.capillaryRefill.parse(3)).toBe(3);
  });

  it('the summary reads its labels from the descriptor', () => {
    const parsed = MedicalRecordCreate.parse({
      ...minimal,
      investigations: { chestXRay: 'clear' },
      treatment: { administrationRoute: 'Oral' },
    });
    const { title, biodata: _b, ...history } = parsed.medicalHistory;
    const record = MedicalRecord.parse({
      _id: '5a1c1e4e-8a4b-4f0e-9a39-2f1f5e1c0a44',
      patient: '6f1c1e4e-8a4b-4f0e-9a39-2f1f5e1c0a11',
      title,
      summary: null,
      summaryInfo: null,
      assessment,
      biodata: {
        name: 'A',
        email: 'a@example.com',
        gender: 'Female',
        age: null,
        occupation: '',
        modeOfAdmission: 'Outpatient',
        dateOfAdmission: '2026-11-20',
        maritalStatus: 'Married',
        address: { street: '', city: '', state: '', pinCode: '' },
      },
      doctorInfo: { doctorName: 'Dr. Lee', doctorEmail: 'lee@example.com' },
      ...history,
      examination: parsed.examination,
      investigations: parsed.investigations,
      treatment: parsed.treatment,
      createdAt: '2026-11-20T10:00:00.000Z',
    });
    const { markdown } = buildSummary(record);
    const chestXRay = recordFields.find((f) => f.name === 'investigations.chestXRay')!;
    const route = recordFields.find((f) => f.name === 'treatment.administrationRoute')!;
    expect(markdown).toContain(`**${summaryLabelOf(chestXRay)}:** clear`);
    expect(markdown).toContain(`**${summaryLabelOf(route)}:** Oral`);
  });
});
