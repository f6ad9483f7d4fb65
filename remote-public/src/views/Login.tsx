// The login page lives in shared-ui: the patient and doctor standalone hosts show it too.
export { Login as default } from '@careloop/shared-ui';
