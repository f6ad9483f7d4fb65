export * from './common';
export * from './password';
export * from './profiles';
export * from './auth';
export * from './constants';
export * from './security';
export * from './connections';
