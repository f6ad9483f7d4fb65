// Answers of the api that match the contract (shared-auth parses every answer in tests): a test
// names only the fields it is about, the rest are plausible defaults.
import type {
  Assessment,
  Doctor,
  DoctorMeResponse,
  Patient,
  PatientMeResponse,
  Prescription,
  Reminder,
  ReminderDelivery,
} from '@careloop/shared-contracts';

export const patientMe = (patient: Partial<Patient> = {}): PatientMeResponse => ({
  patient: {
    _id: '00000000-0000-4000-8000-00000000000a',
    name: 'Patient',
    email: 'patient@example.com',
    DOB: null,
    gender: 'Prefer not to say',
    maritalStatus: 'Unmarried',
    occupation: '',
    address: { street: '', city: '', state: '', pinCode: '' },
    profileComplete: true,
    twoFactorEnabled: false,
    emailVerified: true,
    assignedDoctors: [],
    pendingEmail: null,
    ...patient,
  },
  profileUrl: null,
});

export const doctorMe = (doctor: Partial<Doctor> = {}): DoctorMeResponse => ({
  doctor: {
    _id: '00000000-0000-4000-8000-00000000000d',
    name: 'Doctor',
    email: 'doctor@example.com',
    yearsOfExperience: 1,
    specialization: [],
    qualifications: [],
    gender: 'Prefer not to say',
    assignedPatients: [],
    twoFactorEnabled: false,
    pendingEmail: null,
    emailVerified: true,
    registration: { register: 'GMC', number: '1234567', verified: true },
    mayRequestConnections: true,
    ...doctor,
  },
  profileUrl: null,
});

/** A record's assessment as the api sends it (api/src/clinical/assessment.ts); nothing found unless overridden. */
export const assessment = (over: Partial<Assessment> = {}): Assessment => ({
  acuity: 'none',
  reasons: [],
  findings: [],
  caveats: [],
  news2: null,
  medicationAlerts: [],
  hasVitals: false,
  observedAt: null,
  computedAt: '2026-11-23T09:15:00.000Z',
  contextVersion: 1,
  ...over,
});

/** An active prescription with a 7-day course, nothing overridden, every drug recognised. */
export const prescription = (over: Partial<Prescription> = {}): Prescription => ({
  _id: '1a1c1e4e-8a4b-4f0e-9a39-2f1f5e1c0a01',
  prescribedDrug: 'Amoxicillin',
  dosage: '500 mg',
  administrationRoute: 'Oral',
  dosageFrequency: 'Three times a day',
  allergies: [],
  assignedBy: 'Dr. Lee',
  patientId: '6f1c1e4e-8a4b-4f0e-9a39-2f1f5e1c0a11',
  patientName: 'Asha Rao',
  createdAt: '2026-11-20T10:00:00.000Z',
  status: 'active',
  endsOn: '2026-11-26',
  longTerm: false,
  stopped: null,
  override: null,
  uncoded: [],
  ...over,
});

/** A weekly reminder not yet due: nothing delivered. */
export const reminder = (over: Partial<Reminder> = {}): Reminder => ({
  _id: '7a1c1e4e-8a4b-4f0e-9a39-2f1f5e1c0a55',
  to: 'asha@example.com',
  patientName: 'Asha Rao',
  accessEnded: false,
  subject: 'Dose',
  text: 'Take it',
  startDate: '2026-11-21T09:00:00.000Z',
  intervalDays: 7,
  status: 'scheduled',
  nextRunAt: '2026-11-21T09:00:00.000Z',
  lastSentAt: null,
  sentCount: 0,
  deliveries: [],
  deliveryCount: 0,
  ...over,
});

/** One occurrence of a reminder, sent unless overridden. */
export const reminderDelivery = (over: Partial<ReminderDelivery> = {}): ReminderDelivery => ({
  occurrenceAt: '2026-11-14T09:00:00.000Z',
  state: 'sent',
  error: null,
  nextAttemptAt: null,
  sentAt: '2026-11-14T09:00:02.000Z',
  attempts: 1,
  ...over,
});
