// The same-work ceiling for a list and a write: Fastify (the api's own version) and `pg`, running
// the statements CareLoop runs for the endpoint, in the same order and the same round trips, on the
// same database — and nothing of ours: no contract validation, access layer, clinical checks or
// record descriptor. What the database work of the endpoint costs; the ratio says what our code
// costs on top of it.
//   node bench/same-work-server.mjs <port> --pg <url> --outbox <dir>
// Listens on 127.0.0.1 only; GET /health answers without a query.
//
// The statements are CareLoop's own texts (a column alias added where pg needs a name), captured
// from PostgreSQL's log (log_statement = 'all') while the built api answered each endpoint once
// with its statements prepared. When the api's statements change, capture them again: the bench
// checks the two answers are equal before it measures.
//   GET /medicalhistories          session; page + total + list audit rows (one statement); the
//                                  page's patients (clinical context version)
//   POST /prescription/:patientId  session; prescribing context (one statement); then in one
//                                  transaction: prescription + audit rows, drafts cleared, doctor,
//                                  notification, e-mail preference, sealed e-mail in the outbox;
//                                  after commit the e-mail is leased, written to the outbox folder
//                                  and deleted, as CareLoop's mail worker does.
import Fastify from 'fastify';
import { createCipheriv, createHash, randomBytes, randomUUID } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import pg from 'pg';

const [portArg, kind, url, outboxFlag, outbox] = process.argv.slice(2);
if (kind !== '--pg' || !url || outboxFlag !== '--outbox' || !outbox)
  throw new Error('usage: same-work-server.mjs <port> --pg <url> --outbox <dir>');
const port = Number(portArg);
const pool = new pg.Pool({ connectionString: url, max: 10 });

// The api's defaults: SESSION_MAX_HOURS 12, SESSION_IDLE_MINUTES 15, last_seen_at slides after 1 min.
const MAX_MS = 12 * 3600_000;
const IDLE_MS = 15 * 60_000;
const SLIDE_MS = 60_000;

const SESSION = {
  name: 'active_session_by_token',
  text: `with "touched" as (update "sessions" set "last_seen_at" = $1::timestamptz where (("sessions"."token_hash" = $2 and "sessions"."revoked_at" is null and "sessions"."expires_at" > now() and "sessions"."created_at" > $3 and "sessions"."last_seen_at" > $4) and "sessions"."last_seen_at" < $5) returning "id") select "id", "role", "account_id", coalesce(case "role" when $6 then (select "patients"."two_factor_enabled" from "patients" where "patients"."id" = "sessions"."account_id") when $7 then (select "doctors"."two_factor_enabled" from "doctors" where "doctors"."id" = "sessions"."account_id") end, false) as two_factor from "sessions" where ("sessions"."token_hash" = $8 and "sessions"."revoked_at" is null and "sessions"."expires_at" > now() and "sessions"."created_at" > $9 and "sessions"."last_seen_at" > $10) limit $11`,
};

const assignedPage = (
  first,
) => `(select r.id from (select "assignments"."patient_id" from "assignments" where "assignments"."doctor_id" = $${first}) a
    cross join lateral (
      select m.id, m.created_at from "medical_records" m
      where m.patient_id = a.patient_id
      order by m.created_at desc, m.id desc
      limit $${first + 1}
    ) r
    order by r.created_at desc, r.id desc
    limit $${first + 2} offset $${first + 3})`;

const RECORDS_PAGE = {
  name: 'medical_records_of_assigned_page',
  text: `with "logged" as (insert into "audit_log" ("at", "actor_id", "actor_role", "action", "entity", "patient_id", "ip") select $1::timestamptz, $2::uuid, $3::text,
    'list', $4::text, s.patient_id, $5::text from (
          select m.patient_id, row_number() over (order by m.created_at desc, m.id desc) as rn
          from "medical_records" m where m.id in ${assignedPage(6)}
        ) s group by s.patient_id order by min(s.rn) returning 1 as one) select "id", "patient_id", "doctor_id", "title", "summary", "biodata", "doctor_info", "history", "systemic_history", "examination", "investigations", "treatment", "created_at", "assessment", "summary_info", "has_vitals", (select coalesce(sum(c.n), 0) as n from (select "assignments"."patient_id" from "assignments" where "assignments"."doctor_id" = $10) a
    cross join lateral (select count(*) as n from "medical_records" m where m.patient_id = a.patient_id) c) as "list_total" from "medical_records" where "medical_records"."id" in ${assignedPage(11)} order by "medical_records"."created_at" desc, "medical_records"."id" desc`,
};

const PRESCRIBING_CONTEXT = {
  name: 'prescribing_context',
  text: `select c.doctor_name, c.patient_name, c.allergy_rows, c.notes, c.drugs from (select "doctors"."name" as doctor_name, "patients"."name" as patient_name,
          coalesce((select json_agg(json_build_object('substanceText', "allergy_intolerances"."substance_text", 'substanceCode', "allergy_intolerances"."substance_code", 'type', "allergy_intolerances"."type", 'criticality', "allergy_intolerances"."criticality", 'reactions', "allergy_intolerances"."reactions", 'clinicalStatus', "allergy_intolerances"."clinical_status", 'verificationStatus', "allergy_intolerances"."verification_status", 'reviews', "allergy_intolerances"."reviews") order by "allergy_intolerances"."recorded_at" desc, "allergy_intolerances"."id" asc)
            from "allergy_intolerances" where "allergy_intolerances"."patient_id" = $1::uuid), '[]'::json) as allergy_rows,
          coalesce((select json_agg(n order by n.note) from (select distinct on (n.note) n.note, n.source, n.doctor_id as "doctorId", n.doctor_name as "doctorName",
      (extract(epoch from n.at) * 1000)::float8 as "atMs"
    from (
      select "medical_records"."history"->>'allergies' as note, 'record' as source, "medical_records"."doctor_id" as doctor_id,
        "medical_records"."doctor_info"->>'doctorName' as doctor_name, "medical_records"."created_at" as at, 0::bigint as place
      from "medical_records" where "medical_records"."patient_id" = $2
      union all
      select a.note, 'prescription', "prescriptions"."doctor_id", "prescriptions"."assigned_by", "prescriptions"."created_at", a.place
      from "prescriptions" cross join lateral unnest("prescriptions"."allergies") with ordinality as a(note, place)
      where "prescriptions"."patient_id" = $3 and cardinality("prescriptions"."allergies") > 0
    ) n
    where coalesce(btrim(n.note), '') <> ''
    order by n.note, n.at asc, n.source desc, n.place asc) n), '[]'::json) as notes,
          coalesce((select json_agg(r.drug order by r.at, r.id) from (with recursive d(drug, at, id) as (
      (select "prescriptions"."prescribed_drug", "prescriptions"."created_at", "prescriptions"."id" from "prescriptions" where "prescriptions"."patient_id" = $4 and "prescriptions"."stopped_at" is null and ("prescriptions"."ends_on" is null or "prescriptions"."ends_on" >= $5::date)
        order by "prescriptions"."prescribed_drug", "prescriptions"."created_at", "prescriptions"."id" limit 1)
      union all
      select n.drug, n.at, n.id from d cross join lateral (
        select "prescriptions"."prescribed_drug" as drug, "prescriptions"."created_at" as at, "prescriptions"."id" as id from "prescriptions"
        where "prescriptions"."patient_id" = $6 and "prescriptions"."prescribed_drug" > d.drug and "prescriptions"."stopped_at" is null and ("prescriptions"."ends_on" is null or "prescriptions"."ends_on" >= $7::date)
        order by "prescriptions"."prescribed_drug", "prescriptions"."created_at", "prescriptions"."id" limit 1
      ) n
    )
    select d.drug, d.at, d.id from d order by d.at asc, d.id asc) r), '[]'::json) as drugs
        from "doctors", "patients"
        where "doctors"."id" = $8::uuid and "patients"."id" = $9::uuid
          and exists (select 1 from "assignments" where "assignments"."doctor_id" = $10::uuid and "assignments"."patient_id" = $11::uuid)) c`,
};

const PRESCRIPTION_WRITE = {
  name: 'prescription_write',
  text: `with "logged" as (insert into "audit_log" ("at", "actor_id", "actor_role", "action", "entity", "entity_id", "patient_id", "ip", "detail") select $1::timestamptz, $2::uuid, $3::text, e.action, 'prescription',
          $4::uuid, $5::uuid, $6::text, e.detail
        from (values (1, 'create', null::text), (2, 'override', $7::text)) e(n, action, detail)
        where (e.n = 1 or e.detail is not null) and exists (select 1 from "assignments" where "assignments"."doctor_id" = $8::uuid and "assignments"."patient_id" = $9::uuid)
        order by e.n returning 1 as one) insert into "prescriptions" ("id", "patient_id", "doctor_id", "prescribed_drug", "dosage", "administration_route", "dosage_frequency", "allergies", "assigned_by", "created_at", "ends_on", "long_term", "stopped_at", "stopped_by", "stop_reason", "override", "uncoded") select $10::uuid, $11::uuid, $12::uuid, $13::text,
          $14::text, $15::text, $16::text, $17::text[],
          $18::text, $19::timestamptz, $20::date, $21::boolean,
          null, null, null, $22::jsonb, $23::text[]
        where exists (select 1 from "assignments" where "assignments"."doctor_id" = $24::uuid and "assignments"."patient_id" = $25::uuid) returning "id", "patient_id", "doctor_id", "prescribed_drug", "dosage", "administration_route", "dosage_frequency", "allergies", "assigned_by", "created_at", "ends_on", "long_term", "stopped_at", "stopped_by", "stop_reason", "override", "uncoded"`,
};

const PAGE_PATIENTS = `select "id", "dob", "pregnancy", "clinical_version" from "patients" where "patients"."id" in `;
const CLEAR_DRAFTS = `delete from "drafts" where ("drafts"."doctor_id" = $1 and "drafts"."form" = $2 and "drafts"."patient_id" = $3)`;
const DOCTOR = `select "name", "email" from "doctors" where "doctors"."id" = $1 limit $2`;
const NOTIFY = `insert into "notifications" ("id", "role", "account_id", "kind", "person_name", "person_email", "person_dob", "entity_id", "created_at", "read_at") values (default, $1, $2, $3, $4, $5, $6, $7, $8, default)`;
const EMAIL_PREFERENCE = `select "patients"."email", "patients"."email_verified_at", "notification_preferences"."email" as wants from "patients" left join "notification_preferences" on ("notification_preferences"."role" = $1 and "notification_preferences"."account_id" = "patients"."id" and "notification_preferences"."kind" = $2) where "patients"."id" = $3 limit $4`;
const ENQUEUE = `insert into "mail_outbox" ("id", "sealed", "attempts", "last_error", "next_attempt_at", "lease_until", "created_at") values (default, $1, $2, default, $3, default, $4)`;
const LEASE = `update "mail_outbox" o set lease_until = $1::timestamptz
           where o.id in (select m.id from "mail_outbox" m
                           where m.next_attempt_at <= $2::timestamptz
                             and (m.lease_until is null or m.lease_until <= $3::timestamptz)
                           order by m.next_attempt_at
                           limit $4
                             for update skip locked)
          returning o.id, o.sealed, o.attempts`;
const SENT = `delete from "mail_outbox" where "mail_outbox"."id" = $1`;
const BACKLOG = `select count(*)::int as n from "mail_outbox"`;

const KEY = randomBytes(32);
/** The e-mail sealed as CareLoop seals it: AES-256-GCM, v1.iv.tag.ciphertext in base64url. */
function seal(message) {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', KEY, iv);
  const body = Buffer.concat([cipher.update(JSON.stringify(message)), cipher.final()]);
  return ['v1', iv, cipher.getAuthTag(), body].map((p) => (typeof p === 'string' ? p : p.toString('base64url'))).join('.');
}

async function session(request, reply, role) {
  const token = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1];
  if (!token) return void reply.code(401).send({ error: 'Not signed in' });
  const now = Date.now();
  const at = (ms) => new Date(now - ms).toISOString();
  const hash = createHash('sha256').update(token).digest('hex');
  const { rows } = await pool.query({
    ...SESSION,
    values: [at(0), hash, at(MAX_MS), at(IDLE_MS), at(SLIDE_MS), 'patient', 'doctor', hash, at(MAX_MS), at(IDLE_MS), 1],
  });
  const found = rows[0];
  if (!found) return void reply.code(401).send({ error: 'Not signed in' });
  if (found.role !== role || !found.two_factor) return void reply.code(403).send({ error: 'Forbidden' });
  return found.account_id;
}

const app = Fastify({ logger: false });
app.get('/health', async () => ({ status: 'ok' }));

app.get('/medicalhistories', async (request, reply) => {
  const doctorId = await session(request, reply, 'doctor');
  if (!doctorId) return reply;
  const page = Number(request.query.page ?? 1);
  const limit = Number(request.query.limit ?? 10);
  if (!Number.isInteger(page) || page < 1 || !Number.isInteger(limit) || limit < 1 || limit > 100)
    return reply.code(400).send({ error: 'Invalid page' });
  const offset = (page - 1) * limit;
  const take = offset + limit;
  const { rows } = await pool.query({
    ...RECORDS_PAGE,
    values: [
      new Date().toISOString(),
      doctorId,
      'doctor',
      'medical_record',
      request.ip,
      ...[doctorId, take, limit, offset],
      doctorId,
      ...[doctorId, take, limit, offset],
    ],
  });
  const patientIds = [...new Set(rows.map((r) => r.patient_id))];
  if (patientIds.length) await pool.query(`${PAGE_PATIENTS}(${patientIds.map((_, i) => `$${i + 1}`).join(', ')})`, patientIds);
  const items = rows.map((r) => ({
    _id: r.id,
    patient: r.patient_id,
    summary: r.summary,
    summaryInfo: r.summary_info,
    assessment: r.assessment,
    biodata: r.biodata,
    doctorInfo: r.doctor_info,
    title: r.title,
    ...r.history,
    systemicHistory: r.systemic_history,
    examination: r.examination,
    investigations: r.investigations,
    treatment: r.treatment,
    createdAt: r.created_at.toISOString(),
  }));
  return { items, page, limit, total: Number(rows[0]?.list_total ?? 0) };
});

let draining = false;
/** CareLoop's mail worker, woken after a commit: lease what is due, write it, delete it. */
async function drainMail() {
  if (draining) return;
  draining = true;
  try {
    const now = Date.now();
    const { rows } = await pool.query(LEASE, [
      new Date(now + 120_000).toISOString(),
      new Date(now).toISOString(),
      new Date(now).toISOString(),
      50,
    ]);
    for (const m of rows) {
      await writeFile(join(outbox, `${m.id}.eml`), m.sealed);
      await pool.query(SENT, [m.id]);
    }
    await pool.query(BACKLOG);
  } finally {
    draining = false;
  }
}

app.post('/prescription/:patientId', async (request, reply) => {
  const doctorId = await session(request, reply, 'doctor');
  if (!doctorId) return reply;
  const { patientId } = request.params;
  const b = request.body ?? {};
  for (const k of ['prescribedDrug', 'dosage', 'administrationRoute', 'dosageFrequency'])
    if (typeof b[k] !== 'string' || !b[k].trim()) return reply.code(400).send({ error: `${k} is required` });
  const allergies = Array.isArray(b.allergies) ? b.allergies.map(String) : [];
  const today = new Date().toISOString().slice(0, 10);
  const context = await pool.query({
    ...PRESCRIBING_CONTEXT,
    values: [patientId, patientId, patientId, patientId, today, patientId, today, doctorId, patientId, doctorId, patientId],
  });
  const ctx = context.rows[0];
  if (!ctx) return reply.code(404).send({ error: 'Patient not found' });
  const id = randomUUID();
  const at = new Date().toISOString();
  const client = await pool.connect();
  let row;
  try {
    await client.query('begin');
    ({
      rows: [row],
    } = await client.query({
      ...PRESCRIPTION_WRITE,
      values: [
        ...[at, doctorId, 'doctor', id, patientId, request.ip, null, doctorId, patientId],
        ...[id, patientId, doctorId, b.prescribedDrug, b.dosage, b.administrationRoute, b.dosageFrequency, allergies],
        ...[ctx.doctor_name, at, null, false, null, [], doctorId, patientId],
      ],
    }));
    await client.query(CLEAR_DRAFTS, [doctorId, 'prescription', patientId]);
    const doctor = (await client.query(DOCTOR, [doctorId, 1])).rows[0];
    await client.query(NOTIFY, ['patient', patientId, 'new-prescription', doctor.name, doctor.email, null, id, at]);
    const to = (await client.query(EMAIL_PREFERENCE, ['patient', 'new-prescription', patientId, 1])).rows[0];
    if (to?.email_verified_at && to.wants !== false) {
      const subject = `New prescription from ${doctor.name}`;
      const text = `${doctor.name} has prescribed ${b.prescribedDrug} (${b.dosage}, ${b.administrationRoute}, ${b.dosageFrequency}) for you. Sign in to CareLoop to see it.`;
      await client.query(ENQUEUE, [seal({ to: to.email, subject, text, html: `<p>${text}</p>` }), 0, at, at]);
    }
    await client.query('commit');
  } catch (e) {
    await client.query('rollback').catch(() => {});
    throw e;
  } finally {
    client.release();
  }
  drainMail().catch(() => {});
  return reply.code(201).send({
    _id: row.id,
    prescribedDrug: row.prescribed_drug,
    dosage: row.dosage,
    administrationRoute: row.administration_route,
    dosageFrequency: row.dosage_frequency,
    allergies: row.allergies,
    assignedBy: row.assigned_by,
    patientId: row.patient_id,
    patientName: ctx.patient_name,
    createdAt: row.created_at.toISOString(),
    status: 'active',
    endsOn: row.ends_on,
    longTerm: row.long_term,
    stopped: null,
    override: row.override,
    uncoded: row.uncoded,
    alerts: [],
  });
});

await app.listen({ port, host: '127.0.0.1' });
const stop = () =>
  app
    .close()
    .then(() => pool.end())
    .then(() => process.exit(0));
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
