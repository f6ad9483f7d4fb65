import { useEffect } from 'react';
import { Link, NavLink, useLocation } from '@careloop/shared-router';
import styled, { css } from 'styled-components';
import type { Role } from '@careloop/shared-contracts';
import { useLogout } from '@careloop/shared-auth';
import { Button, NotificationBadge, theme } from '@careloop/shared-ui';
import { useDismissable } from './useDismiss';

const Bar = styled.header`
  position: sticky;
  top: 0;
  z-index: 20;
  background: ${theme.color.surface};
  border-bottom: 1px solid ${theme.color.border};
`;
const Inner = styled.nav`
  max-width: 1100px;
  margin: 0 auto;
  padding: 0.7rem 1rem;
  display: flex;
  align-items: center;
  gap: 1.25rem;
`;
const Brand = styled(Link)`
  font-weight: 800;
  font-size: 1.3rem;
  color: ${theme.color.primary};
  text-decoration: none;
  margin-right: auto;
`;
const linkLook = css`
  color: ${theme.color.text};
  text-decoration: none;
  font-weight: 600;
  padding: 0.25rem 0;
  &.active {
    text-decoration: underline;
    text-underline-offset: 6px;
    text-decoration-thickness: 2px;
  }
  &:hover {
    color: ${theme.color.primary};
  }
`;
const TopLink = styled(NavLink)`
  ${linkLook}
`;
const Wide = styled.div`
  display: flex;
  align-items: center;
  gap: 1.25rem;
  @media (max-width: 767px) {
    display: none;
  }
`;
const MenuButton = styled.button`
  display: none;
  background: none;
  border: 1px solid ${theme.color.border};
  border-radius: 8px;
  padding: 0.4rem 0.6rem;
  font: inherit;
  cursor: pointer;
  @media (max-width: 767px) {
    display: inline-block;
  }
`;
const DropdownBox = styled.div`
  position: relative;
`;
const DropdownMenu = styled.ul`
  position: absolute;
  right: 0;
  top: calc(100% + 0.4rem);
  min-width: 11rem;
  margin: 0;
  padding: 0.4rem 0;
  list-style: none;
  background: ${theme.color.surface};
  border: 1px solid ${theme.color.border};
  border-radius: ${theme.radius};
  box-shadow: ${theme.shadow};
  a {
    display: block;
    padding: 0.5rem 1rem;
    color: ${theme.color.text};
    text-decoration: none;
  }
  a:hover {
    background: ${theme.color.primarySoft};
  }
`;
const Mobile = styled.div`
  border-top: 1px solid ${theme.color.border};
  padding: 0.5rem 1rem 1rem;
  display: flex;
  flex-direction: column;
  gap: 0.6rem;
  @media (min-width: 768px) {
    display: none;
  }
  a {
    ${linkLook}
  }
  /* A dropdown opens in the column, pushing what follows down: floating, it would cover the next
     button, and a tap on its lower part would open that one instead. */
  ${DropdownMenu} {
    position: static;
    margin-top: 0.4rem;
    box-shadow: none;
  }
`;

function Dropdown({ label, items }: { label: string; items: { to: string; text: string }[] }) {
  const { open, setOpen, ref } = useDismissable<HTMLDivElement>();
  return (
    <DropdownBox ref={ref}>
      <Button type="button" $variant="secondary" aria-expanded={open} onClick={() => setOpen(!open)}>
        {label} ▾
      </Button>
      {open && (
        <DropdownMenu aria-label={label}>
          {items.map((item) => (
            <li key={item.to}>
              <Link to={item.to} onClick={() => setOpen(false)}>
                {item.text}
              </Link>
            </li>
          ))}
        </DropdownMenu>
      )}
    </DropdownBox>
  );
}

const SIGN_IN = [
  { to: '/login/patient', text: 'As Patient' },
  { to: '/login/doctor', text: 'As Doctor' },
];
const CREATE_ACCOUNT = [
  { to: '/patient/signup', text: 'As Patient' },
  { to: '/doctor/signup', text: 'As Doctor' },
];
const PAGES = [
  { to: '/features', text: 'Features' },
  { to: '/contact', text: 'Contact' },
  { to: '/team', text: 'Team' },
  { to: '/about', text: 'About' },
];

/** `role`: the frame's signed-in role (Layout's session, or a prerendered app shell's role); null for a visitor. */
export function TopNav({ role }: { role: Role | null }) {
  const signedIn = role !== null;
  const logout = useLogout();
  const mobile = useDismissable<HTMLDivElement>();
  const { pathname } = useLocation();
  const { setOpen: setMobileOpen } = mobile;
  useEffect(() => setMobileOpen(false), [pathname, setMobileOpen]);

  const account = signedIn ? (
    <Button type="button" onClick={logout}>
      Log Out
    </Button>
  ) : (
    <>
      <Dropdown label="Sign In" items={SIGN_IN} />
      <Dropdown label="Create an account" items={CREATE_ACCOUNT} />
    </>
  );

  return (
    <Bar ref={mobile.ref}>
      <Inner aria-label="Main">
        <Brand to="/">CareLoop</Brand>
        {/* At every width: the bell and its unread count, for a signed-in account. */}
        {role && <NotificationBadge role={role} />}
        <Wide>
          {PAGES.map((p) => (
            <TopLink key={p.to} to={p.to}>
              {p.text}
            </TopLink>
          ))}
          {account}
        </Wide>
        <MenuButton type="button" aria-expanded={mobile.open} aria-label="Menu" onClick={() => mobile.setOpen(!mobile.open)}>
          ☰
        </MenuButton>
      </Inner>
      {mobile.open && (
        <Mobile data-testid="mobile-menu">
          <TopLink to="/" end>
            Home
          </TopLink>
          {PAGES.map((p) => (
            <TopLink key={p.to} to={p.to}>
              {p.text}
            </TopLink>
          ))}
          {signedIn && <TopLink to="/dashboard">My Account</TopLink>}
          {account}
        </Mobile>
      )}
    </Bar>
  );
}
