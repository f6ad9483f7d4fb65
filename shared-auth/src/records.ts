import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ENDPOINTS, PAGE_SIZE, type MedicalRecordCreate, type PrescriptionCreate, type Role } from 'shared-contracts';
import { call } from './client';

const FIRST_PAGE = { page: 1, limit: PAGE_SIZE };
export const recordsKey = ['medical-records'] as const;
export const prescriptionsKey = ['prescriptions'] as const;

/** GET /medicalhistories?page=1&limit=10: a patient's own, or a doctor's assigned patients' records. */
export const useMedicalRecords = (patientId?: string) =>
  useQuery({
    // A doctor may narrow the list to one assigned patient (?patientId=…).
    queryKey: patientId ? [...recordsKey, 'page', 1, patientId] : [...recordsKey, 'page', 1],
    queryFn: () => call(ENDPOINTS.listMedicalRecords, { query: patientId ? { ...FIRST_PAGE, patientId } : FIRST_PAGE }),
  });

export const useMedicalRecord = (id: string) =>
  useQuery({
    queryKey: [...recordsKey, id],
    queryFn: () => call(ENDPOINTS.getMedicalRecord, { params: { id } }),
  });

export const createMedicalRecord = (patientId: string, body: MedicalRecordCreate) =>
  call(ENDPOINTS.createMedicalRecord, { params: { patientId }, body });

/** POST /medicalhistory/summary/{id}: the decision-support summary, stored on the record. */
export function useGenerateSummary() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => call(ENDPOINTS.summarizeMedicalRecord, { params: { id }, body: {} }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: recordsKey }),
  });
}

export const usePrescriptions = () =>
  useQuery({
    queryKey: [...prescriptionsKey, 'page', 1],
    queryFn: () => call(ENDPOINTS.listPrescriptions, { query: FIRST_PAGE }),
  });

/** POST /prescription/{id}, id being the patient's. */
export const createPrescription = (patientId: string, body: PrescriptionCreate) =>
  call(ENDPOINTS.createPrescription, { params: { id: patientId }, body });

/** The warning a prescribing form shows before Finish: this drug against the patient's recorded allergies. */
export const fetchDrugAlerts = (patientId: string, drug: string, typedAllergies: string[] = []) =>
  call(ENDPOINTS.drugAlerts, {
    params: { patientId },
    query: typedAllergies.length ? { drug, allergies: typedAllergies.join(',') } : { drug },
  });

/**
 * GET /patient/audit (who accessed the patient's records, prescriptions and files, and the
 * account's security log) or GET /doctor/audit (the doctor account's security log).
 */
export const useAccessHistory = (page = 1, role: Role = 'patient') =>
  useQuery({
    queryKey: ['access-history', role, page],
    queryFn: () =>
      call(role === 'patient' ? ENDPOINTS.accessHistory : ENDPOINTS.doctorAccessHistory, { query: { page, limit: 20 } }),
  });
