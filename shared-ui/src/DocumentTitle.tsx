// The page title's parts live in shared-auth (a context the shell provides and the remotes' views read).
export { documentTitle, RouteTitle, usePageSubject } from '@careloop/shared-auth';
