import { useEffect, useRef, type KeyboardEvent, type ReactNode } from 'react';
import { useAccount, useSessionHandoff } from '@careloop/shared-auth';
import type { Role } from '@careloop/shared-contracts';
import styled from 'styled-components';
import { Banner, Button } from './components';
import { theme } from './theme';

const Backdrop = styled.div`
  position: fixed;
  inset: 0;
  z-index: 100;
  display: flex;
  align-items: center;
  justify-content: center;
  padding: 1rem;
  background: rgba(15, 23, 42, 0.45);
`;

const Box = styled.div`
  width: min(30rem, 100%);
  background: ${theme.color.surface};
  border-radius: ${theme.radius};
  box-shadow: ${theme.shadow};
  padding: 1.25rem;
  overflow-wrap: anywhere;
  h2 {
    margin: 0 0 0.5rem;
    font-size: 1.2rem;
  }
`;

const Actions = styled.div`
  display: flex;
  flex-wrap: wrap;
  gap: 0.75rem;
  margin-top: 1rem;
  & > * {
    flex: 1 1 10rem;
  }
`;

/** The signed-in account, as the person knows it: "Name (e-mail)". */
function SignedInAs({ role }: { role: Role | null }) {
  const { data } = useAccount(role ?? 'patient');
  if (!role) return <>another account</>;
  if (!data) return <>another account</>;
  return (
    <strong>
      {data.name} ({data.email})
    </strong>
  );
}

/**
 * Asks a signed-in person before a Google sign-in's hand-off replaces their session. Focus starts
 * on "Stay signed in" (the choice that changes nothing), Tab stays inside, Escape stays.
 */
export function SwitchAccountDialog({
  signedInAs,
  onSwitch,
  onStay,
}: {
  signedInAs: Role | null;
  onSwitch(): void;
  onStay(): void;
}) {
  const stayButton = useRef<HTMLButtonElement>(null);
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => stayButton.current?.focus(), []);

  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === 'Escape') {
      e.preventDefault();
      onStay();
    } else if (e.key === 'Tab') {
      const buttons = Array.from(box.current?.querySelectorAll('button') ?? []);
      const first = buttons[0];
      const last = buttons[buttons.length - 1];
      if (e.shiftKey && document.activeElement === first) {
        e.preventDefault();
        last?.focus();
      } else if (!e.shiftKey && document.activeElement === last) {
        e.preventDefault();
        first?.focus();
      }
    }
  };

  return (
    <Backdrop>
      <Box
        ref={box}
        role="dialog"
        aria-modal="true"
        aria-labelledby="switch-account-title"
        aria-describedby="switch-account-text"
        onKeyDown={onKeyDown}
      >
        <h2 id="switch-account-title">Switch account?</h2>
        <p id="switch-account-text">
          You are signed in as <SignedInAs role={signedInAs} />. Switch to the account from this Google sign-in?
        </p>
        <Actions>
          <Button type="button" onClick={onSwitch}>
            Switch
          </Button>
          <Button ref={stayButton} type="button" $variant="secondary" onClick={onStay}>
            Stay signed in
          </Button>
        </Actions>
      </Box>
    </Backdrop>
  );
}

/**
 * Wraps a page that a Google sign-in may return to with ?token=<one-time code>&role=… (the patient
 * dashboard, the login page): signs in from the code, asking first if someone is signed in.
 * Renders the page only once there is nothing left to decide.
 */
export function SessionHandoff({ role, children }: { role: Role; children: ReactNode }) {
  const { step, signedInAs, switchAccount, stay } = useSessionHandoff(role);
  if (step === 'waiting' || step === 'leaving') return null;
  if (step === 'confirm') return <SwitchAccountDialog signedInAs={signedInAs} onSwitch={switchAccount} onStay={stay} />;
  return (
    <>
      {step === 'failed' && (
        <Banner tone="error">That Google sign-in has expired or was already used. You are still signed in.</Banner>
      )}
      {children}
    </>
  );
}
