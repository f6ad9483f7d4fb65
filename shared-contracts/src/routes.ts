// `@careloop/shared-contracts/routes`: what a page needs at start-up — the plain constants, messages
// and each endpoint's method and path — without zod or a single schema. Building the contract's
// schemas costs a phone tens of milliseconds; a page pays for them only where a form validates.
export * from './constants';
export * from './messages';
export { fillPath, routePattern } from './endpoint';
export * from './endpoint-routes';
