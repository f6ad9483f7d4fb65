import type { Bundle, CapabilityStatement, OperationOutcome, Resource } from '@medplum/fhirtypes';
import { FHIR_TYPES, type FhirSearchQuery, type FhirType } from '@careloop/shared-contracts';
import type { z } from 'zod';
import { PATIENT_NOT_FOUND, type AuditEntity, type Caller, type PatientAccess } from '../access';
import { HttpError } from '../lib/errors';
import { NOTE_ALLERGY_ID } from './documents';
import { pageLinks, resourcesOf, searchset, type FhirContext } from './everything';
import { ENTITY_OF, LISTED_AS, ROWS_OF } from './kinds';
import { toPractitioner } from './resources';

/** The same text whether the resource is missing or not the caller's (no probing of ids). */
export const notFound = (type: string, id: string) => `${type}/${id} not found`;
export const PATIENT_PARAM_REQUIRED = 'patient is required: search one patient at a time (patient=Patient/{id})';

const DEFAULT_COUNT = 20;

/** The types whose R4 search has `subject` (the others: `patient` only). */
const HAS_SUBJECT = new Set<FhirType>([
  'Encounter',
  'Observation',
  'Composition',
  'RiskAssessment',
  'MedicationRequest',
  'DocumentReference',
]);

const OWNER_KIND: Partial<Record<AuditEntity, 'record' | 'allergy' | 'prescription' | 'file'>> = {
  medical_record: 'record',
  allergy_intolerance: 'allergy',
  prescription: 'prescription',
  medical_file: 'file',
};

const ISSUE_CODE: Record<number, string> = {
  400: 'invalid',
  401: 'login',
  403: 'forbidden',
  404: 'not-found',
  406: 'not-supported',
};

export function operationOutcome(status: number, diagnostics: string): OperationOutcome {
  return {
    resourceType: 'OperationOutcome',
    issue: [{ severity: 'error', code: (ISSUE_CODE[status] ?? 'processing') as 'invalid', diagnostics }],
  };
}

/** The record an Observation or RiskAssessment id is made from (its first 36 characters, a uuid); a Composition's is the record's. */
const recordIdOf = (type: FhirType, id: string) => (type === 'Observation' || type === 'RiskAssessment' ? id.slice(0, 36) : id);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** `GET /fhir/R4/{type}/{id}`: one resource, 404 (same text) when missing or not the caller's. */
export async function readResource(access: PatientAccess, type: FhirType, id: string, ctx: FhirContext): Promise<Resource> {
  const missing = notFound(type, id);
  const entity = ENTITY_OF[type];
  let rows;
  if (type === 'Practitioner') {
    if (!UUID.test(id)) throw new HttpError(404, missing);
    return toPractitioner(await access.fhirDoctor(id, missing));
  } else if (entity === null) {
    if (!UUID.test(id)) throw new HttpError(404, missing);
    // the Patient resource is the patient's profile: its read is audited like any other
    rows = await access.fhirRecordOf(id, { kinds: [] }, { entity: 'account', entityId: id }, missing);
  } else if (type === 'AllergyIntolerance' && NOTE_ALLERGY_ID.test(id)) {
    // an allergy read from a note has no row of its own: its id names the patient
    rows = await access.fhirRecordOf(NOTE_ALLERGY_ID.exec(id)![1], { kinds: ['allergies'] }, ['allergy_intolerance'], missing);
  } else {
    const rowId = recordIdOf(type, id);
    if (!UUID.test(rowId)) throw new HttpError(404, missing);
    const kind = OWNER_KIND[entity]!;
    const patientId = await access.fhirOwnerOf(kind, rowId, missing);
    // one row, not the patient's whole record: a read costs the same for any patient
    rows = await access.fhirRecordOf(patientId, { one: { kind, id: rowId } }, { entity, entityId: rowId }, missing);
  }
  const found = (await resourcesOf(rows, ctx)).find((r) => r.resourceType === type && r.id === id);
  if (!found) throw new HttpError(404, missing);
  return found;
}

/** `Patient/{id}` or `{id}` (a full URL ending so, too). */
function patientIdOf(param: string): string {
  const id = param.replace(/^.*Patient\//, '');
  // not echoed: the parameter is free text
  if (!UUID.test(id)) throw new HttpError(404, PATIENT_NOT_FOUND);
  return id;
}

/** `system|code`, `|code` or `code`, comma-separated (any of). */
function parseCodes(param: string): { system?: string; code: string }[] {
  return param.split(',').map((token) => {
    const bar = token.indexOf('|');
    if (bar < 0) return { code: token };
    return { system: token.slice(0, bar) || undefined, code: token.slice(bar + 1) };
  });
}

const DATE_PARAM =
  /^(eq|ne|gt|lt|ge|le)?(\d{4}(?:-\d{2}(?:-\d{2}(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:\d{2})?)?)?)?)$/;

/**
 * A FHIR date comparison on an instant: the parameter names a range (a day, a month, …), and
 * `eq` means the instant is inside it, `ge` at or after its start, `lt` before its start, etc.
 */
function dateMatcher(param: string): (at: string | undefined) => boolean {
  const m = DATE_PARAM.exec(param);
  if (!m) throw new HttpError(400, `date: expected [eq|ne|gt|lt|ge|le]YYYY[-MM[-DD[Thh:mm[:ss][zone]]]], got ${param}`);
  const prefix = m[1] ?? 'eq';
  const value = m[2];
  const start = Date.parse(
    value.length === 4
      ? `${value}-01-01T00:00:00Z`
      : value.length === 7
        ? `${value}-01T00:00:00Z`
        : value.length === 10
          ? `${value}T00:00:00Z`
          : value,
  );
  const end = (() => {
    const d = new Date(start);
    if (value.length === 4) d.setUTCFullYear(d.getUTCFullYear() + 1);
    else if (value.length === 7) d.setUTCMonth(d.getUTCMonth() + 1);
    else if (value.length === 10) d.setUTCDate(d.getUTCDate() + 1);
    else d.setTime(d.getTime() + 60_000);
    return d.getTime();
  })();
  if (Number.isNaN(start)) throw new HttpError(400, `date: not a date: ${param}`);
  return (at) => {
    if (!at) return false;
    const t = Date.parse(at.length === 10 ? `${at}T00:00:00Z` : at);
    switch (prefix) {
      case 'eq':
        return t >= start && t < end;
      case 'ne':
        return t < start || t >= end;
      case 'gt':
        return t >= end;
      case 'ge':
        return t >= start;
      case 'lt':
        return t < start;
      default:
        return t < end; // le
    }
  };
}

/** The date a resource is searched by (Observation: when measured; Encounter: its start; …). */
function dateOf(r: Resource): string | undefined {
  switch (r.resourceType) {
    case 'Observation':
      return r.effectiveDateTime;
    case 'Encounter':
      return r.period?.start;
    case 'Composition':
      return r.date;
    case 'MedicationRequest':
      return r.authoredOn;
    case 'DocumentReference':
      return r.date;
    case 'AllergyIntolerance':
      return r.recordedDate;
    case 'RiskAssessment':
      return r.occurrenceDateTime;
    default:
      return undefined;
  }
}

function codesOf(r: Resource): { system?: string; code?: string }[] {
  if (r.resourceType === 'Observation') return r.code.coding ?? [];
  if (r.resourceType === 'AllergyIntolerance') return r.code?.coding ?? [];
  return [];
}

/**
 * `GET /fhir/R4/{type}?patient=…`: the type's resources of one patient the caller may see (a
 * patient: their own when `patient` is left out), filtered by `code` and `date` (Observation and
 * the dated types), paged by `_count` and `_offset` with self/next/previous links.
 */
export async function searchResources(
  access: PatientAccess,
  type: FhirType,
  query: z.output<typeof FhirSearchQuery>,
  ctx: FhirContext,
  caller: Caller,
): Promise<Bundle> {
  if (query.subject !== undefined && !HAS_SUBJECT.has(type))
    throw new HttpError(400, `subject: ${type} has no subject search parameter in R4; use patient`);
  if (type === 'MedicationRequest' && query.date !== undefined)
    throw new HttpError(400, 'date: MedicationRequest is searched by when it was written with authoredon (R4)');
  if (type !== 'MedicationRequest' && query.authoredon !== undefined)
    throw new HttpError(400, `authoredon: only MedicationRequest has it; ${type} is searched by date`);
  const asked = query.patient ?? query.subject;
  if (asked === undefined && caller.role !== 'patient') throw new HttpError(400, PATIENT_PARAM_REQUIRED);
  const patientId = asked === undefined ? caller.accountId : patientIdOf(asked);
  const rows = await access.fhirRecordOf(patientId, { kinds: ROWS_OF[type] }, [LISTED_AS[type]]);
  let matches = (await resourcesOf(rows, ctx)).filter((r) => r.resourceType === type);
  if (query.code !== undefined) {
    const wanted = parseCodes(query.code);
    matches = matches.filter((r) =>
      codesOf(r).some((c) => wanted.some((w) => w.code === c.code && (w.system === undefined || w.system === c.system))),
    );
  }
  const dates = [query.date, query.authoredon].flatMap((d) => (d === undefined ? [] : Array.isArray(d) ? d : [d]));
  for (const d of dates) {
    const match = dateMatcher(d);
    matches = matches.filter((r) => match(dateOf(r)));
  }
  const count = query._count ?? DEFAULT_COUNT;
  const offset = query._offset ?? 0;
  const page = matches.slice(offset, offset + count);
  const url = (at: number) => {
    const q = new URLSearchParams();
    if (asked !== undefined) q.set('patient', `Patient/${patientId}`);
    if (query.code !== undefined) q.set('code', query.code);
    for (const d of query.date === undefined ? [] : Array.isArray(query.date) ? query.date : [query.date]) q.append('date', d);
    for (const d of query.authoredon === undefined ? [] : Array.isArray(query.authoredon) ? query.authoredon : [query.authoredon])
      q.append('authoredon', d);
    q.set('_count', String(count));
    q.set('_offset', String(at));
    return `${ctx.baseUrl}/${type}?${q.toString()}`;
  };
  return searchset(page, ctx, { total: matches.length, links: pageLinks(url, offset, count, matches.length) });
}

/** `$everything`'s parameters, as the CapabilityStatement documents them. */
export const EVERYTHING_PARAMETERS = [
  'Parameters (GET): `_since` (instant: resources recorded or changed at or after it);',
  '`_type` (resource types to include, comma-separated);',
  '`start`, `end` (dates YYYY[-MM[-DD]], both included: care dates of encounters, observations,',
  'prescriptions (authoredOn) and documents; the Patient, Practitioners and allergies always come);',
  '`_count` (page size, up to 1000) with `_offset`: follow the `next` link, which carries every parameter;',
  'without `_count`, one page. `total` is exact; any other parameter is a 400.',
].join(' ');

/** `GET /fhir/R4/metadata`: what this server does — read and search of each type, and $everything. */
export function capabilityStatement(origin: string, now: Date): CapabilityStatement {
  const search = (type: FhirType) => {
    const params = [
      { name: 'patient', type: 'reference' as const, documentation: 'Patient/{id}; optional for a patient (their own)' },
    ];
    if (type === 'Observation' || type === 'AllergyIntolerance')
      params.push({ name: 'code', type: 'token' as const, documentation: 'system|code, comma = any of' } as never);
    if (HAS_SUBJECT.has(type))
      params.push({ name: 'subject', type: 'reference' as const, documentation: 'the same as patient' } as never);
    if (type === 'MedicationRequest')
      params.push({ name: 'authoredon', type: 'date' as const, documentation: 'when written: [eq|ne|gt|lt|ge|le]date' } as never);
    else if (type !== 'Patient' && type !== 'Practitioner')
      params.push({ name: 'date', type: 'date' as const, documentation: '[eq|ne|gt|lt|ge|le]date' } as never);
    return params;
  };
  return {
    resourceType: 'CapabilityStatement',
    status: 'active',
    date: now.toISOString(),
    publisher: 'CareLoop',
    kind: 'instance',
    software: { name: 'CareLoop' },
    implementation: { description: 'CareLoop read-only FHIR R4 api', url: `${origin}/fhir/R4` },
    fhirVersion: '4.0.1',
    format: ['application/fhir+json', 'json'],
    rest: [
      {
        mode: 'server',
        documentation: 'Authorization: the same bearer token as the CareLoop api (Authorization: Bearer …).',
        security: {
          service: [
            {
              coding: [{ system: 'http://terminology.hl7.org/CodeSystem/restful-security-service', code: 'OAuth' }],
              text: 'Bearer token',
            },
          ],
          description:
            'A patient reads their own data; an assigned doctor reads their patients\u2019; anything else answers 404.',
        },
        resource: FHIR_TYPES.map((type) => ({
          type,
          interaction: [{ code: 'read' as const }, { code: 'search-type' as const }],
          searchParam: [
            ...search(type),
            { name: '_count', type: 'number' as const },
            { name: '_offset', type: 'number' as const },
          ],
          ...(type === 'Patient'
            ? {
                operation: [
                  {
                    name: 'everything',
                    definition: 'http://hl7.org/fhir/OperationDefinition/Patient-everything',
                    documentation: EVERYTHING_PARAMETERS,
                  },
                ],
              }
            : {}),
        })),
      },
    ],
  };
}
