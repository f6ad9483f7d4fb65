import type { ReactNode } from 'react';
import { Outlet } from '@careloop/shared-router';
import type { Role } from '@careloop/shared-contracts';
import styled from 'styled-components';
import { useIdleLogoff, useSession } from '@careloop/shared-auth';
import { GlobalStyle, IdleWarningDialog } from '@careloop/shared-ui';
import { Sidebar } from './Sidebar';
import { TopNav } from './TopNav';
import { NewVersionBanner } from './NewVersionBanner';

const Body = styled.div`
  display: flex;
  min-height: calc(100vh - 60px);
`;
const Main = styled.div`
  flex: 1;
  min-width: 0;
`;

/** The automatic logoff, for every page of a signed-in session (HIPAA §164.312(a)(2)(iii)). */
function IdleLogoff() {
  const { secondsLeft, staySignedIn } = useIdleLogoff();
  return secondsLeft === null ? null : <IdleWarningDialog secondsLeft={secondsLeft} onStay={staySignedIn} />;
}

/** The page around every view, for a signed-in role (with its sidebar) or none; prerender/pages.tsx renders it too. */
export function Frame({ role, children }: { role: Role | null; children?: ReactNode }) {
  return (
    <>
      <GlobalStyle />
      <TopNav role={role} />
      <NewVersionBanner />
      <Body>
        {role && <Sidebar role={role} />}
        <Main>{children}</Main>
      </Body>
    </>
  );
}

export function Layout() {
  const { isLoading, isAuthenticated, role } = useSession();
  return (
    <>
      <IdleLogoff />
      {/* Content renders only once the stored session has been read (SPEC §4). */}
      <Frame role={isAuthenticated ? role : null}>{isLoading ? null : <Outlet />}</Frame>
    </>
  );
}
