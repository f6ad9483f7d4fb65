import { Link } from 'shared-router';
import styled from 'styled-components';
import type { Role } from 'shared-contracts';
import { theme } from 'shared-ui';

const Aside = styled.aside`
  width: 230px;
  flex-shrink: 0;
  padding: 1.5rem 0.75rem;
  border-right: 1px solid ${theme.color.border};
  background: ${theme.color.surface};
  /* Wide screens only (SPEC §2). */
  @media (max-width: ${theme.wide}) {
    display: none;
  }
  ul {
    list-style: none;
    margin: 0;
    padding: 0;
  }
  a {
    display: block;
    padding: 0.55rem 0.8rem;
    border-radius: 8px;
    color: ${theme.color.text};
    text-decoration: none;
  }
  a:hover {
    background: ${theme.color.primarySoft};
    color: ${theme.color.primaryDark};
  }
`;

export function sidebarEntries(role: Role): { text: string; to: string }[] {
  return [
    { text: 'Personal Information', to: `/${role}/edit` },
    { text: 'Files', to: `/${role}/dashboard/medical-files` },
    { text: 'Prescription', to: '/prescription' },
    { text: 'Medical Records', to: `/${role}/all-medical-records` },
    role === 'doctor'
      ? { text: 'Connect to Patients', to: '/doctor/assign-patients' }
      : { text: 'Assigned Doctors', to: '/patient/assign-doctors' },
    { text: 'Two-Factor Authentication', to: `/${role}/enable2fa` },
    { text: 'Signed-in devices', to: `/${role}/sessions` },
    ...(role === 'doctor' ? [{ text: 'Send Reminder', to: '/doctor/dashboard/reminder' }] : []),
  ];
}

export function Sidebar({ role }: { role: Role }) {
  return (
    <Aside aria-label="Account">
      <ul>
        {sidebarEntries(role).map((e) => (
          <li key={e.text}>
            <Link to={e.to}>{e.text}</Link>
          </li>
        ))}
      </ul>
    </Aside>
  );
}
