import { Outlet } from 'react-router-dom';
import styled from 'styled-components';
import { useSession } from 'shared-auth';
import { GlobalStyle } from 'shared-ui';
import { Sidebar } from './Sidebar';
import { TopNav } from './TopNav';

const Body = styled.div`
  display: flex;
  min-height: calc(100vh - 60px);
`;
const Main = styled.div`
  flex: 1;
  min-width: 0;
`;

export function Layout() {
  const { isLoading, isAuthenticated, role } = useSession();
  return (
    <>
      <GlobalStyle />
      <TopNav />
      <Body>
        {isAuthenticated && role && <Sidebar role={role} />}
        {/* Content renders only once the stored session has been read (SPEC §4). */}
        <Main>{isLoading ? null : <Outlet />}</Main>
      </Body>
    </>
  );
}
