import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ENDPOINTS } from '@careloop/shared-contracts';
import { isoDate } from '../../clinical/age';
import { accessFor } from '../../access';
import type { AppDeps } from '../../deps';
import { patientEverything } from '../../fhir';
import { route } from '../../http/route';
import { fhirContextFor } from '../fhir/context';
import { renderHealthRecordPdf } from './pdf';
import { healthRecordLines } from './record-lines';

/**
 * The patient's health record for people (issue 15 item 2):
 *   GET /patient/health-record.pdf   patient: their own `$everything` Bundle laid out as a PDF
 * Patient only: the route names no patient, so no one else's record can be asked for; a doctor
 * reads an assigned patient's data in the app or through FHIR. The Bundle comes from the FHIR
 * module, which reads it through the access layer and writes its audit rows.
 */
export function healthRecordRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  return async (app) => {
    route(app, deps, ENDPOINTS.patientHealthRecordPdf, async (request, reply) => {
      const bundle = await patientEverything(accessFor(deps, request), request.auth!.accountId, fhirContextFor(deps, request));
      const now = deps.clock.now();
      const timeZone = deps.config.clinicTimeZone;
      const pdf = await renderHealthRecordPdf(healthRecordLines(bundle, { generatedAt: now, timeZone }), { createdAt: now });
      return reply
        .header('content-type', 'application/pdf')
        .header('content-disposition', `attachment; filename="careloop-health-record-${isoDate(now, timeZone)}.pdf"`)
        .header('x-content-type-options', 'nosniff')
        .send(pdf as never);
    });
  };
}
