import { z } from 'zod';
import { endpoint } from '../endpoint';

/*
 * The read-only FHIR R4 api (issue 15; api/src/modules/fhir). Bodies are FHIR JSON
 * (`application/fhir+json`), built and checked against the R4 StructureDefinitions by the api's
 * tests, so the schemas here are loose: they name the shape for OpenAPI, they do not restate FHIR.
 */

export const FHIR_BASE = '/fhir/R4';

/** The resource types served (read by id and search). */
export const FHIR_TYPES = [
  'Patient',
  'Practitioner',
  'Encounter',
  'Observation',
  'AllergyIntolerance',
  'MedicationRequest',
  'DocumentReference',
  'Composition',
  'RiskAssessment',
] as const;
export type FhirType = (typeof FHIR_TYPES)[number];

/** Any FHIR resource (Bundle, CapabilityStatement, …). */
export const FhirResource = z.looseObject({ resourceType: z.string() }).meta({ description: 'A FHIR R4 resource' });

/** FHIR's error body: every error of the FHIR routes (404 alike for missing and not allowed). */
export const OperationOutcome = z
  .looseObject({
    resourceType: z.literal('OperationOutcome'),
    issue: z.array(z.looseObject({ severity: z.string(), code: z.string(), diagnostics: z.string().optional() })),
  })
  .meta({ description: 'A FHIR R4 OperationOutcome' });

const FhirId = z.string().regex(/^[A-Za-z0-9\-.]{1,64}$/, { error: 'Invalid id' });

export const FhirTypeParams = z.strictObject({ type: z.enum(FHIR_TYPES) });
export const FhirReadParams = z.strictObject({ type: z.enum(FHIR_TYPES), id: FhirId });
export const FhirPatientParams = z.strictObject({ id: FhirId });

const SearchValue = z.union([z.string().max(500), z.array(z.string().max(500)).max(10)]);

/**
 * Search parameters (FHIR R4 search, US Core 6.1's among them): `patient` (or `subject` where R4
 * has it) is `Patient/{id}` or `{id}`; every other R4 search parameter of the type (`category`,
 * `code`, `date` with its prefixes, `status`, `clinical-status`, `intent`, `authoredon`, `type`,
 * `_id`, `_lastUpdated`, …, with their modifiers); `_sort`, `_include`, `_summary=count`,
 * `_elements`, `_total`; `_count` a page's size (up to 1000) and `_offset` where it starts (the
 * `next` link carries both). A parameter the server does not know is ignored and reported in the
 * Bundle's OperationOutcome entry, or refused (400) with `Prefer: handling=strict`.
 */
export const FhirSearchQuery = z
  .object({
    patient: z.string().max(200).optional(),
    subject: z.string().max(200).optional(),
    _count: z.coerce.number().int().min(0).max(1000).optional(),
    _offset: z.coerce.number().int().min(0).max(100_000_000).optional(),
    _format: z.string().max(40).optional(),
  })
  .catchall(SearchValue);

/** A FHIR `date` of a day, a month or a year (YYYY, YYYY-MM, YYYY-MM-DD), a real one. */
const FhirDate = z
  .string()
  .regex(/^\d{4}(-(0[1-9]|1[0-2])(-(0[1-9]|[12]\d|3[01]))?)?$/, { error: 'Expected a date: YYYY, YYYY-MM or YYYY-MM-DD' })
  .refine((d) => d.length < 10 || new Date(`${d}T00:00:00Z`).toISOString().startsWith(d), { error: 'Not a calendar date' });

/**
 * `Patient/{id}/$everything` parameters (R4 patient-operation-everything): `_since` an instant
 * (resources recorded or changed at or after it), `_type` resource types to include (comma-separated,
 * repeatable; an unknown one is a 400), `start`/`end` the care dates (a day, month or year, both
 * ends included), `_count` a page's size and `_offset` where it starts (the `next` link carries
 * every parameter). Without `_count` the whole answer is one page. Other parameters are refused (400).
 */
export const FhirEverythingQuery = z.strictObject({
  _since: z.iso.datetime({ offset: true, error: 'Expected an instant: YYYY-MM-DDThh:mm:ss[.sss](Z|+hh:mm)' }).optional(),
  _type: z.union([z.string().max(300), z.array(z.string().max(300)).max(FHIR_TYPES.length)]).optional(),
  start: FhirDate.optional(),
  end: FhirDate.optional(),
  _count: z.coerce.number().int().min(0).max(1000).optional(),
  _offset: z.coerce.number().int().min(0).max(100_000_000).optional(),
  _format: z.string().max(40).optional(),
});

const anyRole = ['patient', 'doctor'] as const;
// 406: the client asked for XML (Accept or _format); only FHIR JSON is served.
const outcomes = {
  400: OperationOutcome,
  401: OperationOutcome,
  403: OperationOutcome,
  404: OperationOutcome,
  406: OperationOutcome,
};

export const FHIR_ENDPOINTS = {
  fhirMetadata: endpoint({
    method: 'GET',
    path: '/fhir/R4/metadata',
    summary: 'FHIR R4 CapabilityStatement: the resource types, interactions and search parameters served',
    tags: ['fhir'],
    access: 'public',
    status: 200,
    response: FhirResource,
    errors: [],
    otherResponses: { 406: OperationOutcome },
  }),
  fhirPatientEverything: endpoint({
    method: 'GET',
    path: '/fhir/R4/Patient/{id}/$everything',
    summary:
      "Everything CareLoop holds on a patient as a FHIR searchset Bundle: the patient's own, or an assigned patient's (doctor); filtered by _since, _type, start and end, paged by _count",
    tags: ['fhir'],
    access: anyRole,
    params: FhirPatientParams,
    query: FhirEverythingQuery,
    status: 200,
    response: FhirResource,
    errors: [],
    otherResponses: outcomes,
  }),
  fhirSearch: endpoint({
    method: 'GET',
    path: '/fhir/R4/{type}',
    summary:
      'FHIR search: a searchset Bundle of the resources of a type the caller may see (by patient, and any R4 search parameter of the type)',
    tags: ['fhir'],
    access: anyRole,
    params: FhirTypeParams,
    query: FhirSearchQuery,
    status: 200,
    response: FhirResource,
    errors: [],
    otherResponses: outcomes,
  }),
  fhirBinary: endpoint({
    method: 'GET',
    path: '/fhir/R4/Binary/{id}',
    summary: "An uploaded PDF (a DocumentReference's attachment), if the caller may see its patient's data",
    description:
      'With Accept application/fhir+json (or json, or _format=json): a Binary resource, the bytes in base64. ' +
      'With Accept application/pdf: the PDF itself. Audited as a read of the file.',
    tags: ['fhir'],
    access: anyRole,
    params: FhirPatientParams,
    status: 200,
    response: null,
    errors: [],
    otherResponses: outcomes,
  }),
  fhirRead: endpoint({
    method: 'GET',
    path: '/fhir/R4/{type}/{id}',
    summary: 'FHIR read: one resource by id, if the caller may see it (404 otherwise, as for a missing id)',
    tags: ['fhir'],
    access: anyRole,
    params: FhirReadParams,
    status: 200,
    response: FhirResource,
    errors: [],
    otherResponses: outcomes,
  }),
};
