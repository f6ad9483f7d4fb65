// Bulk seeding by SQL (INSERT … SELECT generate_series) into the schema the api migrated
// (api/src/db/schema.ts, api/drizzle/*.sql): filler doctors and patients, the measured doctor's
// assignments, and `rows` medical records plus `rows` prescriptions, 100 per patient, with
// created_at spread at random over the last year. Row r belongs to patient g = r mod (rows / 100), so
// a patient's rows are scattered over the whole table, as years of interleaved visits would leave them.
//
// Patients (index g, 100 rows each in both tables):
//   g = 0        the measured patient (signed up through the api)
//   g = 1…9      filler patients assigned to the measured doctor, whose rows that doctor wrote
//   g ≥ 10       filler patients of 50 filler doctors (not the measured doctor's)
// So the measured patient always sees 100 rows and the measured doctor 1,000 (10 patients × 100),
// whatever the table size: page 1 should cost the same at 1k and at 1M rows. `assigned` (default
// 10) moves that line: with assigned = rows / 100 every patient is the measured doctor's (the
// worklist at scale).
//
// As a module: seedDatabase({ exec, rows, doctorId, patientId, log }), where exec(sql) runs a
// multi-statement SQL string (pg Client.query, or PGlite exec). As a script (PostgreSQL only):
//   node bench/seed.mjs --url postgres://… --rows 1000000 --doctor <uuid> --patient <uuid>
import { pathToFileURL } from 'node:url';

export const PER_PATIENT = 100;
const FILLER_DOCTORS = 50;

const lit = (value) => `'${String(value).replace(/'/g, "''")}'`;
const json = (value) => `${lit(JSON.stringify(value))}::jsonb`;
/** A deterministic, RFC 4122-shaped (version 4, variant 8) uuid from a text key, in SQL. */
const uuidOf = (keySql) => `(overlay(overlay(md5(${keySql}) placing '4' from 13) placing '8' from 17))::uuid`;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const HISTORY = {
  historyOfPresentingComplaints: 'Cough for five days',
  historyOfPresentingIllness: 'Productive cough, low-grade fever, no haemoptysis',
  pastSurgicalHistory: 'Appendicectomy 2010',
  pastMedicalHistory: 'Asthma since childhood',
  familyHistory: 'Hypertension (father)',
  drugHistory: 'Salbutamol inhaler as needed',
  allergies: 'Penicillin',
  gynecologicalHistory: '',
  occupationalHistory: 'Teacher',
  travelHistory: 'None in the last year',
  socioeconomicHistory: 'Non-smoker, lives with partner',
};
const SYSTEMIC = {
  centralNervousSystem: 'No headache, no focal deficit',
  cardiovascularSystem: 'No chest pain, no palpitations',
  gastrointestinalSystem: 'Normal appetite, no vomiting',
  genitourinarySystem: '',
  musculoskeletalSystem: '',
};
const EXAMINATION = {
  generalPhysicalExamination: {
    bloodPressure: '128/84',
    pulse: 88,
    temperature: '37.9',
    respiratoryRate: 18,
    bloodSugarLevel: '5.6',
    Notes: 'Alert, mildly unwell',
  },
  respiratorySystem: 'Crackles right base',
  centralNervousSystem: 'Normal',
  cardiovascularSystem: 'S1 S2 normal, no murmur',
  gastrointestinalSystem: 'Soft, non-tender',
};
const INVESTIGATIONS = {
  completeBloodCount: 'WBC 12.1',
  liverFunctionTests: 'Normal',
  renalFunctionTests: 'Normal',
  vitalMarkers: '',
  serumElectrolytes: 'Normal',
  prothrombinTime: '',
  activatedPartialThromboplastinTime: '',
  electrocardiogram: 'Sinus rhythm',
  chestXRay: 'Right lower lobe consolidation',
};
const TREATMENT = {
  prescribedDrug: 'Clarithromycin',
  dosage: '500 mg',
  administrationRoute: 'Oral',
  dosageFrequency: 'Twice daily',
};
const BIODATA = {
  name: 'Seed Patient',
  email: 'seed-patient@seed.example',
  gender: 'Female',
  age: { years: 45, months: 6, days: 3 },
  occupation: 'Teacher',
  modeOfAdmission: 'Outpatient',
  dateOfAdmission: '2026-01-15',
  maritalStatus: 'Married',
  address: { street: '1 High St', city: 'Leeds', state: 'West Yorkshire', pinCode: 'LS1 1AA' },
};

/** SQL for patient and doctor ids from g (see the layout above). */
function idsSql(doctorId, patientId, assigned) {
  if (!UUID.test(doctorId) || !UUID.test(patientId)) throw new Error('seed: doctorId and patientId must be uuids');
  return {
    patient: (g) => `(CASE WHEN ${g} = 0 THEN ${lit(patientId)}::uuid ELSE ${uuidOf(`'bench-patient-' || ${g}`)} END)`,
    doctor: (g) =>
      `(CASE WHEN ${g} < ${assigned} THEN ${lit(doctorId)}::uuid ELSE ${uuidOf(`'bench-doctor-' || (${g} % ${FILLER_DOCTORS})`)} END)`,
  };
}

/** Doctors, patients 1…P-1 and the measured doctor's assignments. */
function peopleSql({ patients, doctorId, assigned }) {
  return `INSERT INTO doctors (id, name, email, password_hash)
       SELECT ${uuidOf("'bench-doctor-' || d")}, 'Seed Doctor ' || d, 'seed-doctor-' || d || '@seed.example', 'not-a-hash'
       FROM generate_series(0, ${FILLER_DOCTORS - 1}) d
     ON CONFLICT DO NOTHING;
     INSERT INTO patients (id, name, email, password_hash, dob, gender, occupation)
       SELECT ${uuidOf("'bench-patient-' || g")}, 'Seed Patient ' || g, 'seed-patient-' || g || '@seed.example', 'not-a-hash',
              DATE '1950-01-01' + (g % 20000), 'Female', 'Teacher'
       FROM generate_series(1, ${patients - 1}) g
     ON CONFLICT DO NOTHING;
     INSERT INTO assignments (doctor_id, patient_id, created_at)
       SELECT ${lit(doctorId)}::uuid, ${uuidOf("'bench-patient-' || g")}, now()
       FROM generate_series(1, ${assigned - 1}) g
     ON CONFLICT DO NOTHING;`;
}

function recordsSql({ fromRow, toRow, patients, doctorId, patientId, assigned }) {
  const id = idsSql(doctorId, patientId, assigned);
  const g = `(r % ${patients})`;
  return `INSERT INTO medical_records
      (patient_id, doctor_id, title, biodata, doctor_info, history, systemic_history, examination, investigations, treatment, created_at)
    SELECT ${id.patient(g)}, ${id.doctor(g)}, 'Seeded visit ' || r, ${json(BIODATA)},
           ${json({ doctorName: 'Seed Doctor', doctorEmail: 'seed-doctor@seed.example' })},
           ${json(HISTORY)}, ${json(SYSTEMIC)}, ${json(EXAMINATION)}, ${json(INVESTIGATIONS)}, ${json(TREATMENT)},
           now() - random() * interval '365 days'
    FROM generate_series(${fromRow}, ${toRow - 1}) r;`;
}

function prescriptionsSql({ fromRow, toRow, patients, doctorId, patientId, assigned }) {
  const id = idsSql(doctorId, patientId, assigned);
  const g = `(r % ${patients})`;
  return `INSERT INTO prescriptions
      (patient_id, doctor_id, prescribed_drug, dosage, administration_route, dosage_frequency, allergies, assigned_by, created_at)
    SELECT ${id.patient(g)}, ${id.doctor(g)},
           (ARRAY['Paracetamol','Amoxicillin','Ibuprofen','Metformin','Atorvastatin'])[1 + r % 5],
           '500 mg', 'Oral', 'Twice daily', ARRAY['Penicillin']::text[], 'Seed Doctor',
           now() - random() * interval '365 days'
    FROM generate_series(${fromRow}, ${toRow - 1}) r;`;
}

/**
 * Seeds `rows` rows into each of medical_records and prescriptions (and the people they need), in
 * chunks, then VACUUM ANALYZE (statistics and the visibility map, as autovacuum would leave them).
 * Returns the seconds taken.
 */
export async function seedDatabase({ exec, rows, doctorId, patientId, assigned = 10, chunk = 200_000, log = () => {} }) {
  if (rows < 10 * PER_PATIENT || rows % PER_PATIENT)
    throw new Error(`seed: rows must be a multiple of ${PER_PATIENT}, at least ${10 * PER_PATIENT}`);
  const patients = rows / PER_PATIENT;
  const t0 = Date.now();
  if (assigned < 1 || assigned > patients) throw new Error(`seed: assigned must be 1…${patients}`);
  await exec(peopleSql({ patients, doctorId, assigned }));
  for (let from = 0; from < rows; from += chunk) {
    const to = Math.min(rows, from + chunk);
    const args = { fromRow: from, toRow: to, patients, doctorId, patientId, assigned };
    await exec(recordsSql(args));
    await exec(prescriptionsSql(args));
    if (rows > chunk)
      log(
        `    seeded ${to.toLocaleString('en')} / ${rows.toLocaleString('en')} rows per table (${((Date.now() - t0) / 1000).toFixed(0)} s)`,
      );
  }
  // one statement per call: VACUUM may not run inside a multi-statement (implicit transaction) string
  for (const table of ['patients', 'doctors', 'assignments', 'medical_records', 'prescriptions'])
    await exec(`VACUUM ANALYZE ${table}`);
  return (Date.now() - t0) / 1000;
}

/** PostgreSQL session settings that make a bulk load faster without changing what is stored. */
export const PG_BULK_SETTINGS = "SET synchronous_commit = off; SET maintenance_work_mem = '256MB';";

// ---- CLI (PostgreSQL) ----------------------------------------------------------------------
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const args = Object.fromEntries(
    process.argv.slice(2).reduce((acc, a, i, all) => (a.startsWith('--') ? [...acc, [a.slice(2), all[i + 1]]] : acc), []),
  );
  if (!args.url || !args.doctor || !args.patient) {
    console.error('usage: node bench/seed.mjs --url postgres://… --rows 1000000 --doctor <uuid> --patient <uuid>');
    process.exit(2);
  }
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: args.url });
  await client.connect();
  try {
    await client.query(PG_BULK_SETTINGS);
    const seconds = await seedDatabase({
      exec: (sql) => client.query(sql),
      rows: Number(args.rows ?? 1000),
      doctorId: args.doctor,
      patientId: args.patient,
      log: console.log,
    });
    console.log(`seeded in ${seconds.toFixed(1)} s`);
  } finally {
    await client.end();
  }
}
