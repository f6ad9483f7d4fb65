import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { DoctorProfileUpdate, PatientProfileUpdate } from '@careloop/shared-contracts';
import { call } from './client';
import { recordsKey } from './records';

export const profileKey = (role: 'patient' | 'doctor') => ['me', role] as const;

export const usePatientProfile = () =>
  useQuery({
    queryKey: profileKey('patient'),
    queryFn: () => call('patientMe'),
  });

export const useDoctorProfile = () =>
  useQuery({
    queryKey: profileKey('doctor'),
    queryFn: () => call('doctorMe'),
  });

/** PATCH /{role}/me; a token in the answer replaces the stored one (see client.ts). */
export function useUpdateProfile(role: 'patient'): ReturnType<typeof useProfileMutation<PatientProfileUpdate>>;
export function useUpdateProfile(role: 'doctor'): ReturnType<typeof useProfileMutation<DoctorProfileUpdate>>;
export function useUpdateProfile(role: 'patient' | 'doctor') {
  return useProfileMutation(role);
}

function useProfileMutation<Body extends object>(role: 'patient' | 'doctor') {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: Body): Promise<unknown> => call(`${role}UpdateMe`, { body }),
    // a patient's date of birth is read by their records' assessments
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: profileKey(role) }),
        role === 'patient' && queryClient.invalidateQueries({ queryKey: recordsKey }),
      ]),
  });
}

/** The signed-in account of either role, for views both roles share. */
export const useAccount = (role: 'patient' | 'doctor') =>
  useQuery({
    queryKey: profileKey(role),
    queryFn: () => call(`${role}Me`),
    select: (data) => ('patient' in data ? data.patient : data.doctor),
  });
