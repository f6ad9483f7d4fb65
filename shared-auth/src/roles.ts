import type { Role } from '@careloop/shared-contracts';

export const dashboardPath = (role: Role) => `/${role}/dashboard`;
export const otherRole = (role: Role): Role => (role === 'patient' ? 'doctor' : 'patient');
export const roleTitle = (role: Role) => (role === 'patient' ? 'Patient' : 'Doctor');
