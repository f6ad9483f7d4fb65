import Negotiator from 'negotiator';

/** The media types this FHIR api answers in: JSON only (no XML, no Turtle). */
const JSON_TYPES = ['application/fhir+json', 'application/json'];

export const JSON_ONLY = 'This server answers in FHIR JSON only (application/fhir+json): ask with Accept or _format json';

/**
 * Whether a request can take a JSON answer: its `_format` (FHIR's override of Accept: `json`,
 * `application/fhir+json`, …) names JSON, or, without one, its Accept header allows a JSON type
 * (no header, or *\/*, allows anything). A client that asked for XML gets a 406, never a body it
 * would mis-parse.
 */
export function acceptsFhirJson(accept: string | undefined, format: string | undefined): boolean {
  if (format !== undefined) return /json/i.test(format);
  return new Negotiator({ headers: { accept } }).mediaType(JSON_TYPES) !== undefined;
}

/**
 * What a Binary read answers: a FHIR Binary resource when the client takes FHIR JSON (`_format`
 * json, or Accept), the PDF itself when it asks for application/pdf over JSON; null: neither (406).
 */
export function binaryAnswer(accept: string | undefined, format: string | undefined): 'resource' | 'pdf' | null {
  if (format !== undefined) return /json/i.test(format) ? 'resource' : null;
  const type = new Negotiator({ headers: { accept } }).mediaType([...JSON_TYPES, 'application/pdf']);
  return type === 'application/pdf' ? 'pdf' : type ? 'resource' : null;
}
