export * from './session';
export * from './config';
// The raw ky instance stays inside the package: everything else calls endpoints of the contract.
export {
  call,
  configureApi,
  endpointUrl,
  fetchFile,
  httpStatus,
  serverError,
  type CallInput,
  type CallOutput,
  type EndpointName,
} from './client';
export * from './auth';
export * from './profile';
export * from './query';
export * from './guards';
export * from './mfa';
export * from './hooks';
export * from './roles';
export * from './security';
export * from './handoff';
export * from './connections';
export * from './records';
export * from './allergies';
export * from './files';
export * from './reminders';
export * from './drafts';
export * from './idle';
export * from './sessions';
export * from './signed-out';
export * from './health-record';
export * from './notifications';
export * from './page-title';
