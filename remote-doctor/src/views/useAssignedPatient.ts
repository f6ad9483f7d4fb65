import { useDoctorProfile } from 'shared-auth';

/** The assigned patient's name from the doctor's profile, or undefined when not assigned. */
export function useAssignedPatient(patientId: string) {
  const { data } = useDoctorProfile();
  return { loaded: Boolean(data), patient: data?.doctor.assignedPatients.find((p) => p.patient === patientId) };
}
