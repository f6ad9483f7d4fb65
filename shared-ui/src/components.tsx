import type { ComponentProps, ReactNode } from 'react';
import { Link } from '@careloop/shared-router';
import styled, { css, keyframes } from 'styled-components';
import { theme } from './theme';

const buttonLook = css<{ $variant?: 'primary' | 'secondary' | 'danger' }>`
  display: inline-flex;
  align-items: center;
  justify-content: center;
  gap: 0.4rem;
  padding: 0.6rem 1.2rem;
  border-radius: ${theme.radius};
  font: inherit;
  font-weight: 600;
  text-decoration: none;
  cursor: pointer;
  border: 2px solid ${theme.color.primary};
  background: ${({ $variant }) => ($variant === 'secondary' ? theme.color.surface : theme.color.primary)};
  color: ${({ $variant }) => ($variant === 'secondary' ? theme.color.primary : '#fff')};
  ${({ $variant }) =>
    $variant === 'danger' &&
    css`
      background: ${theme.color.danger};
      border-color: ${theme.color.danger};
    `}
  &:hover {
    filter: brightness(0.93);
  }
  &:disabled {
    opacity: 0.6;
    cursor: not-allowed;
  }
`;

const ButtonBase = styled.button<{ $variant?: 'primary' | 'secondary' | 'danger' }>`
  ${buttonLook}
`;

const spin = keyframes`to { transform: rotate(360deg); }`;
const appear = keyframes`to { opacity: 1; }`;
/* Shown only once the action has taken 300 ms: a fast answer never flickers a spinner. */
const Spinner = styled.span`
  width: 1em;
  height: 1em;
  border: 2px solid currentColor;
  border-right-color: transparent;
  border-radius: 50%;
  opacity: 0;
  animation:
    ${appear} 0s linear 300ms forwards,
    ${spin} 0.8s linear infinite;
  @media (prefers-reduced-motion: reduce) {
    animation: ${appear} 0s linear 300ms forwards;
  }
`;

/**
 * A button. `busy` (its action under way) disables it, marks it aria-busy and, past 300 ms, shows
 * a spinner beside its label: every slow action shows that it is working.
 */
export function Button({ busy = false, disabled, children, ...rest }: ComponentProps<typeof ButtonBase> & { busy?: boolean }) {
  return (
    <ButtonBase {...rest} disabled={disabled || busy} aria-busy={busy || undefined}>
      {busy && <Spinner aria-hidden="true" data-testid="spinner" />}
      {children}
    </ButtonBase>
  );
}

export const ButtonLink = styled(Link)<{ $variant?: 'primary' | 'secondary' | 'danger' }>`
  ${buttonLook}
`;
/** A link out of the app (a server-side sign-in) that looks like a button. */
export const ButtonAnchor = styled.a<{ $variant?: 'primary' | 'secondary' | 'danger' }>`
  ${buttonLook}
`;

/** An action that reads as a link in running text ("Use a recovery code"): a button, for what it does. */
export const TextButton = styled.button.attrs({ type: 'button' })`
  background: none;
  border: 0;
  padding: 0;
  font: inherit;
  color: ${theme.color.primary};
  text-decoration: underline;
  cursor: pointer;
`;

export const Page = styled.main`
  max-width: 1100px;
  margin: 0 auto;
  padding: 1.5rem 1rem 3rem;
`;

export const Card = styled.section`
  background: ${theme.color.surface};
  border: 1px solid ${theme.color.border};
  border-radius: ${theme.radius};
  box-shadow: ${theme.shadow};
  padding: 1.25rem;
`;

export const Narrow = styled(Card)`
  max-width: 520px;
  margin: 2rem auto;
`;

export const Row = styled.div`
  display: flex;
  flex-wrap: wrap;
  gap: 0.75rem;
  align-items: center;
`;

export const Grid = styled.div`
  display: grid;
  gap: 1rem;
  grid-template-columns: repeat(auto-fill, minmax(260px, 1fr));
`;

const BannerBox = styled.p<{ $tone: 'error' | 'success' | 'info' }>`
  margin: 0.75rem 0;
  font-weight: 600;
  color: ${({ $tone }) =>
    $tone === 'error' ? theme.color.danger : $tone === 'success' ? theme.color.success : theme.color.muted};
`;

/** A one-line message: red for errors, green for successes (SPEC §8). */
export function Banner({ tone, children }: { tone: 'error' | 'success' | 'info'; children: ReactNode }) {
  return (
    <BannerBox $tone={tone} role={tone === 'error' ? 'alert' : 'status'}>
      {children}
    </BannerBox>
  );
}

/**
 * A region whose data could not be loaded: says so (an alert), with Try again when the caller can
 * ask again. A region that failed must never look like one still loading, or like one with nothing in it.
 */
export function LoadFailed({ text, onRetry }: { text: string; onRetry?: () => void }) {
  return (
    <Banner tone="error">
      {text}{' '}
      {onRetry && (
        <Button type="button" $variant="secondary" onClick={onRetry}>
          Try again
        </Button>
      )}
    </Banner>
  );
}

const EmptyBox = styled.p`
  color: ${theme.color.muted};
  text-align: center;
  padding: 1.5rem 0;
`;
export const EmptyState = ({ children }: { children: ReactNode }) => <EmptyBox>{children}</EmptyBox>;

export const Heading = styled.h1`
  font-size: 1.6rem;
  margin: 0 0 1rem;
`;
