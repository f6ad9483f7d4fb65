import { useDoctorProfile } from '@careloop/shared-auth';

/** The assigned patient (name, date of birth, e-mail) from the doctor's profile, undefined when not assigned; and the doctor's id. */
export function useAssignedPatient(patientId: string) {
  const { data } = useDoctorProfile();
  return {
    loaded: Boolean(data),
    doctorId: data?.doctor._id,
    patient: data?.doctor.assignedPatients.find((p) => p.patient === patientId),
  };
}
