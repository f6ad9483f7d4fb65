import { PatientPicker } from './PatientPicker';

export default function PickRecordPatient() {
  return <PatientPicker title="New medical record" base="/medical-record/create" action="Create a medical record" />;
}
