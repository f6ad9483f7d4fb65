import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import { ENDPOINTS } from 'shared-contracts';
import { accessFor } from '../../access';
import { narrativeSummary } from '../../adapters/model';
import { buildSummary, drugAllergyAlerts } from '../../clinical';
import type { AppDeps } from '../../deps';
import { route } from '../../http/route';

/**
 * Medical records (SPEC §3, §7):
 *   POST /medicalhistory/{patientId}       doctor, assigned patient: create (biodata filled here)
 *   GET  /medicalhistories?page&limit      patient: own; doctor: assigned patients' (or one of them)
 *   GET  /medicalHistory/{id}              the patient, or a doctor assigned to them
 *   POST /medicalhistory/summary/{id}      doctor assigned to the record's patient: (re)generate
 * Access, the 404 for anything the caller may not see and the audit rows are the access layer's
 * (src/access): one audit row per patient whose data is read or written.
 */
export function recordRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  const { config } = deps;
  const fetchFn = deps.fetch ?? globalThis.fetch;

  return async (app) => {
    route(app, deps, ENDPOINTS.createMedicalRecord, async (request, reply) => {
      const input = request.body;
      const result = await accessFor(deps, request).createRecord(request.params.patientId, input);
      reply.code(201);
      return {
        record: result.record,
        alerts: drugAllergyAlerts(input.treatment.prescribedDrug, result.allergies),
      };
    });

    route(app, deps, ENDPOINTS.listMedicalRecords, async (request) => {
      return accessFor(deps, request).listRecords(request.query);
    });

    route(app, deps, ENDPOINTS.getMedicalRecord, async (request) => {
      return accessFor(deps, request).readRecord(request.params.id);
    });

    // Its own scope: the empty body the web app sends as `{}` may also come as nothing at all,
    // even with a JSON content type.
    await app.register(async (scope) => {
      scope.removeContentTypeParser('application/json');
      scope.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
        const text = (body as string).trim();
        if (!text) return done(null, undefined);
        try {
          done(null, JSON.parse(text));
        } catch (err) {
          (err as { statusCode?: number }).statusCode = 400;
          done(err as Error, undefined);
        }
      });

      route(scope.withTypeProvider<ZodTypeProvider>(), deps, ENDPOINTS.summarizeMedicalRecord, async (request) => {
        const access = accessFor(deps, request);
        const { record, prescriptions } = await access.summaryInputs(request.params.id);

        const computed = buildSummary(record, { prescriptions });
        // Outside any transaction: the model may take seconds.
        const outcome = await narrativeSummary(computed.markdown, config.summaryLlm, fetchFn);
        if (outcome.error) request.log.warn({ err: outcome.error }, 'summary model failed; deterministic summary kept');

        await access.saveSummary(record, outcome.summary);
        return { summary: outcome.summary };
      });
    });
  };
}
