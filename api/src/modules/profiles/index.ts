import type { Role } from '@careloop/shared-contracts';
import { doctorProfile } from './doctor';
import { patientProfile } from './patient';
import type { AnyProfileSpec } from './spec';

export const PROFILES: Record<Role, AnyProfileSpec> = { patient: patientProfile, doctor: doctorProfile };
