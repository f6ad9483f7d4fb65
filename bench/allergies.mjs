// Section 4 — a patient with 200 maximal allergy notes (distinct, 1,000 characters each, on four
// prescriptions of 50: the most a prescription takes), and a record: every endpoint that reads
// them, next to the same endpoint for a patient with the same record and prescriptions whose notes
// are one short one (the baseline: only the notes differ), on the api as it ships (embedded PGlite,
// default configuration). The target: the slowest endpoint's median stays under
// ALLERGY_NOTES_TARGET_MS.
import { connect, latencyStats, PRESCRIPTION_BODY, recordBody, request, signup } from './lib/http.mjs';
import { freePort, startApi, tempDir } from './lib/proc.mjs';

export const ALLERGY_NOTES_TARGET_MS = 200;
const NOTES = 200;
const NOTE_MAX = 1000;
const PER_PRESCRIPTION = 50;

// Phrases doctors write in allergy notes: substances, reactions, negation and doubt.
const PHRASES = [
  'Penicillin (anaphylaxis 2019, ICU admission)',
  'no other allergies',
  'codeine - vomiting and drowsiness',
  'negative challenge to cefuroxime',
  'mother allergic to sulfa',
  'tolerated amoxicillin in 2021?',
  'latex - contact dermatitis',
  'ibuprofen causes wheeze',
  'NKDA per GP letter, query',
  'trimethoprim rash',
  'denies other drug allergies',
  'morphine itch',
  'peanuts - lip swelling',
  'clarithromycin nausea',
  'aspirin - urticaria',
];

/** A distinct, realistic note of exactly NOTE_MAX characters. */
export function maximalNote(i) {
  let note = `Note ${i}: `;
  for (let k = 0; note.length < NOTE_MAX; k++) note += `${PHRASES[(i + k * 7) % PHRASES.length]}; `;
  return note.slice(0, NOTE_MAX);
}

async function patientWith(base, doctor, tag, notes) {
  const patient = await signup(base, 'patient', `allergy-${tag}-${Date.now().toString(36)}@bench.example`, `Allergy ${tag}`, {
    DOB: '1970-05-06',
  });
  await connect(base, doctor, patient);
  const body = recordBody(0);
  body.treatment.prescribedDrug = 'Paracetamol';
  const record = await request(base, 'POST', `/medicalhistory/${patient.id}`, { token: doctor.token, body });
  if (record.status !== 201) throw new Error(`record: ${record.status} ${JSON.stringify(record.body).slice(0, 300)}`);
  for (let i = 0; i < notes.length; i += PER_PRESCRIPTION) {
    const allergies = notes.slice(i, i + PER_PRESCRIPTION);
    const res = await request(base, 'POST', `/prescription/${patient.id}`, {
      token: doctor.token,
      body: { ...PRESCRIPTION_BODY, allergies, longTerm: true, overrideReason: 'Bench: known and accepted' },
    });
    if (res.status !== 201) throw new Error(`prescription ${i}: ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
  }
  return { ...patient, recordId: record.body.record._id };
}

const rx = {
  prescribedDrug: 'Co-amoxiclav 625 mg',
  dosage: '625 mg',
  administrationRoute: 'Oral',
  dosageFrequency: 'tds for 5 days',
};

function cases(p) {
  return [
    ['GET /allergies/{patient}', 'doctor', 'GET', `/allergies/${p.id}`],
    ['GET /drug-alerts/{patient}', 'doctor', 'GET', `/drug-alerts/${p.id}?drug=Co-amoxiclav%20625%20mg`],
    [
      'POST /prescription/{patient}',
      'doctor',
      'POST',
      `/prescription/${p.id}`,
      { ...rx, overrideReason: 'Bench: benefit outweighs risk' },
    ],
    ['GET /medicalhistories (page 1)', 'doctor', 'GET', `/medicalhistories?page=1&limit=10&patientId=${p.id}`],
    ['GET /medicalHistory/{id}', 'patient', 'GET', `/medicalHistory/${p.recordId}`],
    ['POST /medicalhistory/summary/{id}', 'doctor', 'POST', `/medicalhistory/summary/${p.recordId}`, {}],
    ['GET /fhir/R4/AllergyIntolerance', 'patient', 'GET', `/fhir/R4/AllergyIntolerance?patient=${p.id}`],
    ['GET /fhir/R4/Patient/{id}/$everything', 'patient', 'GET', `/fhir/R4/Patient/${p.id}/$everything`],
    ['GET /patient/health-record.pdf', 'patient', 'GET', '/patient/health-record.pdf'],
  ];
}

async function sample(base, token, method, path, body, n) {
  const ms = [];
  let bytes = 0;
  for (let i = 0; i < n; i++) {
    const res = await request(base, method, path, { token, body });
    if (res.status >= 300) throw new Error(`${method} ${path} answered ${res.status}: ${JSON.stringify(res.body).slice(0, 200)}`);
    ms.push(res.ms);
    bytes = typeof res.body === 'string' ? res.body.length : JSON.stringify(res.body).length;
  }
  return { ...latencyStats(ms), bytes };
}

export async function runAllergies({ quick, log }) {
  const started = Date.now();
  const n = quick ? 5 : 15;
  const api = await startApi({ port: await freePort(4741), dataDir: tempDir('careloop-bench-allergies-') });
  try {
    const base = api.url;
    const doctor = await signup(base, 'doctor', `allergy-doctor-${Date.now().toString(36)}@bench.example`, 'Dr Allergy');
    log(`Allergy notes: writing ${NOTES} distinct ${NOTE_MAX}-character allergy notes`);
    const heavy = await patientWith(
      base,
      doctor,
      'heavy',
      Array.from({ length: NOTES }, (_, i) => maximalNote(i)),
    );
    const light = await patientWith(base, doctor, 'light', Array(NOTES).fill('Penicillin (rash)'));
    const rows = [];
    const heavyCases = cases(heavy);
    const lightCases = cases(light);
    for (let c = 0; c < heavyCases.length; c++) {
      const [label, role, method, path, body] = heavyCases[c];
      const [, , , lightPath, lightBody] = lightCases[c];
      const tokenOf = (p) => (role === 'doctor' ? doctor.token : p.token);
      await sample(base, tokenOf(heavy), method, path, body, 2); // warm-up
      const h = await sample(base, tokenOf(heavy), method, path, body, n);
      const l = await sample(base, tokenOf(light), method, lightPath, lightBody, n);
      rows.push({ endpoint: label, heavy: h, light: l, ratio: h.median / l.median });
      log(`  ${label}: ${h.median.toFixed(1)} ms (one note: ${l.median.toFixed(1)} ms)`);
    }
    const slowest = rows.reduce((a, b) => (b.heavy.median > a.heavy.median ? b : a));
    return { rows, notes: NOTES, noteLength: NOTE_MAX, samples: n, slowest, seconds: (Date.now() - started) / 1000 };
  } finally {
    await api.stop();
  }
}
