import { useEffect, useId, useRef } from 'react';
import styled from 'styled-components';
import { Button } from './components';
import { theme } from './theme';

const Backdrop = styled.div`
  position: fixed;
  inset: 0;
  z-index: 1000;
  display: grid;
  place-items: center;
  padding: 1rem;
  background: rgba(16, 42, 67, 0.55);
`;
const Dialog = styled.div`
  max-width: 26rem;
  width: 100%;
  padding: 1.25rem 1.5rem;
  border-radius: 12px;
  background: #fff;
  color: ${theme.color.text};
  box-shadow: 0 10px 30px rgba(0, 0, 0, 0.25);
  h2 {
    margin: 0 0 0.5rem;
    font-size: 1.2rem;
  }
`;

/**
 * The automatic logoff's warning (useIdleLogoff in shared-auth): a modal alert dialog whose one
 * action keeps the session. Focus moves to it so a keyboard or screen-reader user meets it first.
 */
export function IdleWarningDialog({ secondsLeft, onStay }: { secondsLeft: number; onStay(): void }) {
  const titleId = useId();
  const textId = useId();
  const stay = useRef<HTMLButtonElement>(null);
  useEffect(() => stay.current?.focus(), []);
  return (
    <Backdrop data-idle-warning="">
      <Dialog role="alertdialog" aria-modal="true" aria-labelledby={titleId} aria-describedby={textId}>
        <h2 id={titleId}>Are you still there?</h2>
        <p id={textId}>You will be signed out in {secondsLeft} s for your security</p>
        <Button ref={stay} type="button" onClick={onStay}>
          Stay signed in
        </Button>
      </Dialog>
    </Backdrop>
  );
}
