import { takeOverPrerendered } from './prerendered';
import { preloadCurrentView } from './startup';

// A prerendered page (`/`, the logins): its static first screen stays until the app has rendered its own.
takeOverPrerendered();
// Before the async boundary: runtime-config.json, the remote entry and the view load beside the shared chunks.
preloadCurrentView();
import('./bootstrap');
