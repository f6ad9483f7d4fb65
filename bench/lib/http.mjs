// The real HTTP api, used to set up the users, the care-network assignment and the records
// before anything is measured; and a keep-alive client for sequential latency samples.
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import http from 'node:http';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Secret, TOTP } from 'otpauth';
import { API_DATABASES, OUTBOXES, ROOT } from './proc.mjs';

const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

/** One request on a kept-alive socket; resolves { status, body (parsed JSON or text), ms }. */
export function request(base, method, path, { token, body } = {}) {
  const url = new URL(path, base);
  const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const req = http.request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname + url.search,
        method,
        agent,
        headers: {
          ...(token ? { authorization: `Bearer ${token}` } : {}),
          ...(payload ? { 'content-type': 'application/json', 'content-length': payload.length } : {}),
        },
        timeout: 30_000,
      },
      (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => {
          const ms = performance.now() - t0;
          const text = Buffer.concat(chunks).toString();
          let parsed = text;
          try {
            parsed = JSON.parse(text);
          } catch {
            /* not JSON */
          }
          resolve({ status: res.statusCode, body: parsed, ms });
        });
      },
    );
    req.on('timeout', () => req.destroy(new Error(`${method} ${path} timed out`)));
    req.on('error', reject);
    req.end(payload);
  });
}

async function ok(base, method, path, opts, expected) {
  const res = await request(base, method, path, opts);
  if (!expected.includes(res.status)) {
    throw new Error(`${method} ${path} answered ${res.status}: ${JSON.stringify(res.body).slice(0, 300)}`);
  }
  return res.body;
}

export const PASSWORD = 'Bench-Passw0rd-CareLoop!';

export async function signup(base, role, email, name, extra = {}) {
  const registration = role === 'doctor' ? { registration: { register: 'GMC', number: '1234567' } } : {};
  const body = { name, email, password: PASSWORD, ...registration, ...extra };
  const res = await ok(base, 'POST', `/${role}/signup`, { body }, [201]);
  await verifyEmail(base, role, email);
  if (role === 'doctor') verifyDoctor(base, email);
  // Doctors must have two-factor on before any patient data (REQUIRE_MFA_FOR's default).
  if (role === 'doctor') await enrolTwoFactor(base, role, res.token);
  const me = await ok(base, 'GET', `/${role}/me`, { token: res.token }, [200]);
  return { token: res.token, id: me[role]._id, email, name };
}

/** The doctor's registration verified by the operator command (the built api's), on that api's database. */
function verifyDoctor(base, email) {
  const database = API_DATABASES.get(base);
  if (!database) throw new Error(`${base} was not started by startApi`);
  const run = spawnSync(process.execPath, [join(ROOT, 'api/dist/ops/cli.js'), 'verify-doctor', email], {
    env: { ...process.env, ...database },
    encoding: 'utf8',
  });
  if (run.status !== 0) throw new Error(`verify-doctor ${email} failed: ${run.stderr}`);
}

/** Turns two-factor on with the authenticator's current code (the session stays signed in). */
async function enrolTwoFactor(base, role, token) {
  const { secret } = await ok(base, 'GET', `/${role}/qrCode`, { token }, [200]);
  const code = TOTP.generate({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 });
  const res = await ok(base, 'POST', `/${role}/verifyqrCode`, { token, body: { code } }, [200]);
  if (res.verify !== true) throw new Error(`two-factor enrolment refused: ${JSON.stringify(res).slice(0, 200)}`);
}

/**
 * Follows the verification link the api mailed to `email` (its outbox folder): only a verified
 * account may send or receive a connection request.
 */
async function verifyEmail(base, role, email) {
  const outbox = OUTBOXES.get(base);
  if (!outbox) throw new Error(`no outbox known for ${base}`);
  for (let attempt = 0; attempt < 50; attempt++) {
    let files = [];
    try {
      files = readdirSync(outbox).filter((f) => f.endsWith('.eml'));
    } catch {
      // not written yet
    }
    for (const f of files) {
      const raw = readFileSync(join(outbox, f), 'utf8').replace(/=\r?\n/g, '');
      if (!raw.split('\n').some((l) => l.startsWith('To:') && l.includes(email))) continue;
      const token = new RegExp(`/${role}/verify-email/([A-Za-z0-9_-]+)`).exec(raw)?.[1];
      // The link works only with the account's password (every bench account has PASSWORD).
      if (token) return void (await ok(base, 'POST', `/${role}/verify-email/${token}`, { body: { password: PASSWORD } }, [200]));
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no verification mail to ${email} in ${outbox}`);
}

/** doctor asks, patient accepts: the assignment is made by the api itself. */
export async function connect(base, doctor, patient) {
  await ok(base, 'POST', '/doctor/requestPatient', { token: doctor.token, body: { email: patient.email } }, [201]);
  const received = await ok(base, 'GET', '/patient/receivedRequests', { token: patient.token }, [200]);
  const mine = received.find((r) => r.doctor.email === doctor.email);
  if (!mine) throw new Error('the connection request did not reach the patient');
  await ok(base, 'PATCH', `/patient/responseRequest/${mine._id}`, { token: patient.token, body: { action: 'accept' } }, [200]);
}

export function recordBody(i) {
  return {
    medicalHistory: {
      title: `Bench visit ${i}`,
      biodata: { modeOfAdmission: i % 2 ? 'Outpatient' : 'Emergency' },
      systemicHistory: {
        centralNervousSystem: 'No headache, no focal deficit',
        cardiovascularSystem: 'No chest pain',
        gastrointestinalSystem: 'Normal appetite',
        genitourinarySystem: '',
        musculoskeletalSystem: '',
      },
      historyOfPresentingComplaints: 'Cough for five days',
      historyOfPresentingIllness: 'Productive cough, low-grade fever',
      pastSurgicalHistory: 'Appendicectomy 2010',
      pastMedicalHistory: 'Asthma',
      familyHistory: 'Hypertension (father)',
      drugHistory: 'Salbutamol inhaler',
      allergies: 'Penicillin',
      gynecologicalHistory: '',
      occupationalHistory: 'Teacher',
      travelHistory: 'None',
      socioeconomicHistory: 'Non-smoker',
    },
    examination: {
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
      cardiovascularSystem: 'S1 S2 normal',
      gastrointestinalSystem: 'Soft, non-tender',
    },
    investigations: {
      completeBloodCount: 'WBC 12.1',
      liverFunctionTests: 'Normal',
      renalFunctionTests: 'Normal',
      vitalMarkers: '',
      serumElectrolytes: 'Normal',
      prothrombinTime: '',
      activatedPartialThromboplastinTime: '',
      electrocardiogram: 'Sinus rhythm',
      chestXRay: 'Right lower lobe consolidation',
    },
    treatment: {
      prescribedDrug: 'Clarithromycin',
      dosage: '500 mg',
      administrationRoute: 'Oral',
      dosageFrequency: 'Twice daily',
    },
  };
}

export const PRESCRIPTION_BODY = {
  prescribedDrug: 'Paracetamol',
  dosage: '1 g',
  administrationRoute: 'Oral',
  dosageFrequency: 'Every 6 hours',
  allergies: [],
};

export async function createRecord(base, doctor, patientId, i) {
  return ok(base, 'POST', `/medicalhistory/${patientId}`, { token: doctor.token, body: recordBody(i) }, [201]);
}

/** `count` one-off reminders to the doctor's patients, all due at `at`. */
export async function scheduleReminders(base, doctor, patients, count, at) {
  for (let i = 0; i < count; i++) {
    const body = {
      to: patients[i % patients.length].email,
      subject: `Bench reminder ${i}`,
      text: 'Take your medicine.',
      startDate: at.toISOString(),
      intervalDays: 0,
    };
    await ok(base, 'POST', '/doctor/reminder', { token: doctor.token, body }, [201]);
  }
}

/** E-mails the api has written to its outbox folder so far. */
export function outboxCount(base) {
  try {
    return readdirSync(OUTBOXES.get(base)).filter((f) => f.endsWith('.eml')).length;
  } catch {
    return 0;
  }
}

export async function createPrescription(base, doctor, patientId) {
  return ok(base, 'POST', `/prescription/${patientId}`, { token: doctor.token, body: PRESCRIPTION_BODY }, [201]);
}

/** k sequential GETs on one kept-alive socket; every answer must be 200. Returns { ms[], last }. */
export async function sampleGets(base, path, token, k) {
  const ms = [];
  let last;
  for (let i = 0; i < k; i++) {
    const res = await request(base, 'GET', path, { token });
    if (res.status !== 200) throw new Error(`GET ${path} answered ${res.status}: ${JSON.stringify(res.body).slice(0, 200)}`);
    ms.push(res.ms);
    last = res.body;
  }
  return { ms, last };
}

/** median, p99 and max of latency samples (ms) */
export function latencyStats(samples) {
  const s = [...samples].sort((a, b) => a - b);
  const q = (p) => s[Math.min(s.length - 1, Math.ceil(p * s.length) - 1)];
  return { n: s.length, median: q(0.5), p99: q(0.99), max: s.at(-1) };
}
