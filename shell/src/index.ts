import { preloadCurrentView } from './startup';

// Before the async boundary: runtime-config.json, the remote entry and the view load beside the shared chunks.
preloadCurrentView();
import('./bootstrap');
