import { startStandalone } from 'shared-ui';
import About from './views/About';
import Contact from './views/Contact';
import Features from './views/Features';
import Landing from './views/Landing';
import Login from './views/Login';
import Team from './views/Team';

void startStandalone('remote-public', [
  { path: '/', View: Landing },
  { path: '/about', View: About },
  { path: '/team', View: Team },
  { path: '/features', View: Features },
  { path: '/contact', View: Contact },
  { path: '/login/patient', View: Login, props: { role: 'patient' } },
  { path: '/login/doctor', View: Login, props: { role: 'doctor' } },
]);
