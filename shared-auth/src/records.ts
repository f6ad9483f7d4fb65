import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  PAGE_SIZE, type AuditEntry, type DrugAllergyAlert, type MedicalRecord, type MedicalRecordCreate, type Prescription,
  type PrescriptionCreate,
} from 'shared-contracts';
import { api } from './client';

interface Page<T> {
  items: T[];
  page: number;
  limit: number;
  total: number;
}

const FIRST_PAGE = { page: '1', limit: String(PAGE_SIZE) };
export const recordsKey = ['medical-records'] as const;
export const prescriptionsKey = ['prescriptions'] as const;

/** GET /medicalhistories?page=1&limit=10: a patient's own, or a doctor's assigned patients' records. */
export const useMedicalRecords = () =>
  useQuery({
    queryKey: [...recordsKey, 'page', 1],
    queryFn: () => api().get('medicalhistories', { searchParams: FIRST_PAGE }).json<Page<MedicalRecord>>(),
  });

export const useMedicalRecord = (id: string) =>
  useQuery({
    queryKey: [...recordsKey, id],
    queryFn: () => api().get(`medicalHistory/${encodeURIComponent(id)}`).json<MedicalRecord>(),
  });

export const createMedicalRecord = (patientId: string, body: MedicalRecordCreate) =>
  api()
    .post(`medicalhistory/${encodeURIComponent(patientId)}`, { json: body })
    .json<{ record: MedicalRecord; alerts: DrugAllergyAlert[] }>();

/** POST /medicalhistory/summary/{id}: the decision-support summary, stored on the record. */
export function useGenerateSummary() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      api().post(`medicalhistory/summary/${encodeURIComponent(id)}`, { json: {} }).json<{ summary: string }>(),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: recordsKey }),
  });
}

export const usePrescriptions = () =>
  useQuery({
    queryKey: [...prescriptionsKey, 'page', 1],
    queryFn: () => api().get('prescription', { searchParams: FIRST_PAGE }).json<Page<Prescription>>(),
  });

export const createPrescription = (patientId: string, body: PrescriptionCreate) =>
  api()
    .post(`prescription/${encodeURIComponent(patientId)}`, { json: body })
    .json<Prescription & { alerts: DrugAllergyAlert[] }>();

/** The warning a prescribing form shows before Finish: this drug against the patient's recorded allergies. */
export const fetchDrugAlerts = (patientId: string, drug: string, typedAllergies: string[] = []) =>
  api()
    .get(`drug-alerts/${encodeURIComponent(patientId)}`, {
      searchParams: typedAllergies.length ? { drug, allergies: typedAllergies.join(',') } : { drug },
    })
    .json<{ alerts: DrugAllergyAlert[]; allergies: string[] }>();

/** GET /patient/audit: who accessed the patient's records, prescriptions and files. */
export const useAccessHistory = (page = 1) =>
  useQuery({
    queryKey: ['access-history', page],
    queryFn: () =>
      api()
        .get('patient/audit', { searchParams: { page: String(page), limit: '20' } })
        .json<Page<AuditEntry>>(),
  });
