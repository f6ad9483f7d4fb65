import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { HTTPError } from 'ky';
import type {
  MedicalRecordCreate,
  AuditKind,
  MedicationAlert,
  Pregnancy,
  PrescriptionCreate,
  Role,
} from '@careloop/shared-contracts';
import { PAGE_SIZE } from '@careloop/shared-contracts/routes';
import { call } from './client';

const FIRST_PAGE = { page: 1, limit: PAGE_SIZE };
export const recordsKey = ['medical-records'] as const;
export const prescriptionsKey = ['prescriptions'] as const;
/** Under recordsKey: whatever refreshes the records refreshes the worklist (it reads their vitals). */
export const worklistKey = [...recordsKey, 'worklist'] as const;

/** GET /medicalhistories?page=1&limit=10: a patient's own, or a doctor's assigned patients' records. */
export const useMedicalRecords = (patientId?: string) =>
  useQuery({
    // A doctor may narrow the list to one assigned patient (?patientId=…).
    queryKey: patientId ? [...recordsKey, 'page', 1, patientId] : [...recordsKey, 'page', 1],
    queryFn: () => call('listMedicalRecords', { query: patientId ? { ...FIRST_PAGE, patientId } : FIRST_PAGE }),
  });

/**
 * GET /vital-signs[?patientId=]: NEWS2 and the vital signs across the patient's records, for the
 * trend chart. Under the records key, so a new record or summary refetches it too.
 */
export const useVitalSignTrend = (patientId?: string) =>
  useQuery({
    queryKey: [...recordsKey, 'vital-signs', patientId ?? 'own'],
    queryFn: () => call('vitalSignTrend', { query: patientId ? { patientId } : {} }),
  });

/** GET /doctor/worklist: the doctor's assigned patients, most at risk first (latest NEWS2, its change). */
export const useWorklist = () =>
  useQuery({
    queryKey: worklistKey,
    queryFn: () => call('doctorWorklist'),
  });

export const useMedicalRecord = (id: string) =>
  useQuery({
    queryKey: [...recordsKey, id],
    queryFn: () => call('getMedicalRecord', { params: { id } }),
  });

export const createMedicalRecord = (patientId: string, body: MedicalRecordCreate) =>
  call('createMedicalRecord', { params: { patientId }, body });

/** POST /medicalhistory/summary/{id}: the decision-support summary, stored on the record. */
export function useGenerateSummary() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => call('summarizeMedicalRecord', { params: { id }, body: {} }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: recordsKey }),
  });
}

export const usePrescriptions = () =>
  useQuery({
    queryKey: [...prescriptionsKey, 'page', 1],
    queryFn: () => call('listPrescriptions', { query: FIRST_PAGE }),
  });

/**
 * POST /prescription/{id}/stop (doctor): stops an active prescription with a reason; the lists,
 * records (their assessments read the active medications) and allergy checks refresh.
 */
export function useStopPrescription() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, reason }: { id: string; reason: string }) =>
      call('stopPrescription', { params: { id }, body: { reason } }),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: prescriptionsKey });
      await queryClient.invalidateQueries({ queryKey: recordsKey });
    },
  });
}

/** POST /prescription/{id}, id being the patient's. */
export const createPrescription = (patientId: string, body: PrescriptionCreate) =>
  call('createPrescription', { params: { id: patientId }, body });

/**
 * A create refused for a stop alert without an override reason (409): the alerts it found, for the
 * form to show with the reason field. undefined for any other failure.
 */
export async function overrideRequiredAlerts(err: unknown): Promise<MedicationAlert[] | undefined> {
  if (!(err instanceof HTTPError) || err.response.status !== 409) return undefined;
  const body = err.data; // the answer's body, read and parsed by ky
  // checked, not trusted (the alerts a doctor must see); the schema loads only for this answer
  // The schema's chunk may fail to load (network): then the form says the save failed, never nothing.
  const contract = await import('@careloop/shared-contracts').catch(() => null);
  if (!contract) return undefined;
  const parsed = contract.OverrideRequired.safeParse(body);
  return parsed.success ? parsed.data.alerts : undefined;
}

/** The alerts a prescribing form shows before Finish: this drug against the patient's allergies and active medications. */
export const fetchDrugAlerts = (patientId: string, drug: string, typedAllergies: string[] = []) =>
  call('drugAlerts', {
    params: { patientId },
    query: typedAllergies.length ? { drug, allergies: typedAllergies.join(',') } : { drug },
  });

/**
 * GET /patient/audit (who accessed the patient's records, prescriptions and files, and the
 * account's security log) or GET /doctor/audit (the doctor account's security log).
 */
export const useAccessHistory = (page = 1, role: Role = 'patient', kind?: AuditKind) =>
  useQuery({
    queryKey: ['access-history', role, kind ?? 'all', page],
    // the last page stays on screen (marked busy) while another page or filter loads: nothing jumps
    placeholderData: keepPreviousData,
    queryFn: () =>
      call(role === 'patient' ? 'accessHistory' : 'doctorAccessHistory', {
        query: { page, limit: 20, ...(kind ? { kind } : {}) },
      }),
  });

/** GET /pregnancy/{patientId}: under the records key (the assessments read it). Idle without a patient. */
export const usePregnancy = (patientId: string | undefined) =>
  useQuery({
    queryKey: [...recordsKey, 'pregnancy', patientId],
    queryFn: () => call('getPregnancy', { params: { patientId: patientId! } }),
    enabled: !!patientId,
  });

/** PUT /pregnancy/{patientId} (doctor): the records, their assessments and the worklist are read again. */
export function useSetPregnancy(patientId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: Pregnancy) => call('setPregnancy', { params: { patientId }, body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: recordsKey }),
  });
}

/** GET /clinic: the clinic's time zone, in which every time is shown (read once per session). */
export const useClinic = () =>
  useQuery({
    queryKey: ['clinic'],
    queryFn: () => call('clinic'),
    staleTime: Infinity,
  });
