import { PatientPicker } from './PatientPicker';

export default function PickPrescriptionPatient() {
  return <PatientPicker title="New prescription" base="/create-prescription" action="Write a prescription" />;
}
