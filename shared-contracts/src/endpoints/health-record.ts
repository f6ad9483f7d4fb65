import { endpoint } from '../endpoint';

/** The patient's own health record for people (issue 15): the `$everything` content as a PDF. */
export const HEALTH_RECORD_ENDPOINTS = {
  patientHealthRecordPdf: endpoint({
    method: 'GET',
    path: '/patient/health-record.pdf',
    summary: "The patient's own health record as a PDF (the same content as FHIR $everything)",
    description:
      "Answers application/pdf as an attachment named careloop-health-record-YYYY-MM-DD.pdf (the clinic's date). " +
      'Audited as a list of every record, prescription, file and allergy it holds.',
    tags: ['health record'],
    access: ['patient'],
    status: 200,
    response: null,
    errors: [401, 403, 404],
  }),
} as const;
