export * from './theme';
export * from './components';
export * from './fields';
export * from './MultiStepForm';
export * from './StandaloneHost';
export * from './forms';
export * from './DashboardCards';
export * from './account';
