import { startStandalone } from '@careloop/shared-ui';
import routes from './routes';

// The same list the shell serves (src/routes.ts), alone in the page for QA.
void startStandalone('remote-patient', 'patient', routes);
