import { takeOverPrerendered } from './prerendered';
import { preloadCurrentView } from './startup';

// A prerendered page (`/`, the logins, the dashboards): its static first screen stays until the app has rendered its own.
const container = takeOverPrerendered();
// Before the async boundary: runtime-config.json, the remote entry and the view load beside the shared chunks.
preloadCurrentView();

const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

// The libraries are evaluated a few at a time, each group in a task of its own, instead of the whole
// app in one long task that blocks a slow phone's main thread (Lighthouse's total blocking time).
async function boot() {
  await import('react-dom/client');
  await nextTask();
  await Promise.all([import('@careloop/shared-router'), import('styled-components')]);
  await nextTask();
  await import('@careloop/shared-auth');
  await nextTask();
  const { start } = await import('./bootstrap');
  await start(container);
}
// its own task too: the entry chunk's evaluation and the federation's start-up do not add up
setTimeout(() => void boot(), 0);
