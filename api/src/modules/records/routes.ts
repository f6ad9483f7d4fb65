import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import { ENDPOINTS, type WorklistItem } from '@careloop/shared-contracts';
import { accessFor } from '../../access';
import { narrativeSummary } from '../../adapters/model';
import { news2Change, patientAcuity, recordObservations, worklistOrder, type News2Parameter } from '../../clinical';
import type { AppDeps } from '../../deps';
import { route } from '../../http/route';

/**
 * Medical records (SPEC §3, §7):
 *   POST /medicalhistory/{patientId}       doctor, assigned patient: create (biodata filled here); its
 *                                          treatment's drug checked as a prescription (409 on a stop
 *                                          alert without overrideReason)
 *   GET  /medicalhistories?page&limit      patient: own; doctor: assigned patients' (or one of them)
 *   GET  /medicalHistory/{id}              the patient, or a doctor assigned to them
 *   POST /medicalhistory/summary/{id}      doctor assigned to the record's patient: (re)generate
 *   GET  /doctor/worklist                  doctor: assigned patients, most at risk first (latest NEWS2)
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
      return result;
    });

    route(app, deps, ENDPOINTS.listMedicalRecords, async (request) => {
      return accessFor(deps, request).listRecords(request.query);
    });

    route(app, deps, ENDPOINTS.getMedicalRecord, async (request) => {
      return accessFor(deps, request).readRecord(request.params.id);
    });

    route(app, deps, ENDPOINTS.doctorWorklist, async (request) => {
      const patients = await accessFor(deps, request).worklistRecords();
      const entries = patients.map(({ patient, records }) => {
        const { acuity, reasons, lastVitals, previousVitals } = patientAcuity(records);
        const news2 = lastVitals?.assessment.news2;
        const score = lastVitals ? recordObservations(lastVitals).news2 : null;
        const item: WorklistItem = {
          ...patient,
          acuity,
          reasons,
          latest:
            lastVitals && news2
              ? {
                  recordId: lastVitals._id,
                  recordedAt: lastVitals.createdAt,
                  news2: {
                    total: news2.total,
                    complete: news2.complete,
                    singleParameterThree: news2.singleParameterThree,
                    applicable: news2.applicable,
                    ...(news2.band ? { band: news2.band } : {}),
                  },
                  ...(news2.complete ? {} : { missing: news2.missing as News2Parameter[] }),
                }
              : null,
          change: news2Change(score, previousVitals ? recordObservations(previousVitals).news2 : null),
          lastRecordAt: records[0]?.createdAt ?? null,
          lastVitalsAt: lastVitals?.createdAt ?? null,
        };
        // what the order reads (src/clinical/worklist.ts); an adult tier only where NEWS2 applies
        const ranked = score && news2?.applicable ? { news2: score, recordedAt: new Date(lastVitals!.createdAt) } : null;
        return { name: patient.name, id: patient.patient, acuity, latest: ranked, item };
      });
      return { items: worklistOrder(entries).map((e) => e.item) };
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
        const { record, computed } = await access.summaryInputs(request.params.id);
        // Outside any transaction: the model may take seconds.
        const outcome = await narrativeSummary(computed.markdown, config.summaryLlm, fetchFn);
        if (outcome.error) request.log.warn({ err: outcome.error }, 'summary model failed; deterministic summary kept');
        // labelled as the model's wherever it is shown: "Narrative rewritten by <model> at <time>"
        await access.saveSummary(record, outcome.summary, outcome.rewrittenBy?.model ?? null);
        return { summary: outcome.summary };
      });
    });
  };
}
