import { useState, type ReactNode } from 'react';
import styled from 'styled-components';
import { Banner, Button, Row } from './components';
import { theme } from './theme';

export interface Step {
  title: string;
  content: ReactNode;
}

const Steps = styled.ol`
  display: flex;
  gap: 0.4rem;
  list-style: none;
  padding: 0;
  margin: 0 0 1rem;
`;
const Dot = styled.li<{ $state: 'done' | 'current' | 'todo' }>`
  flex: 1;
  height: 6px;
  border-radius: 3px;
  background: ${({ $state }) => ($state === 'todo' ? theme.color.border : theme.color.primary)};
  opacity: ${({ $state }) => ($state === 'done' ? 0.55 : 1)};
`;

/**
 * Signup, profile edit and record creation (SPEC §4): Next / Back, Finish on the last step,
 * and submission only there. The browser checks each step's fields before moving on.
 */
export function MultiStepForm({
  steps, onFinish, busy, error, label,
}: { steps: Step[]; onFinish(): void; busy?: boolean; error?: ReactNode; label: string }) {
  const [index, setIndex] = useState(0);
  const last = index === steps.length - 1;
  const step = steps[index];
  return (
    <form
      aria-label={label}
      onSubmit={(e) => {
        e.preventDefault();
        if (last) onFinish();
        else setIndex(index + 1);
      }}
    >
      <Steps aria-label={`Step ${index + 1} of ${steps.length}`}>
        {steps.map((s, i) => (
          <Dot key={s.title} $state={i < index ? 'done' : i === index ? 'current' : 'todo'} />
        ))}
      </Steps>
      <h2>{step.title}</h2>
      {step.content}
      {error && <Banner tone="error">{error}</Banner>}
      <Row>
        {index > 0 && (
          <Button type="button" $variant="secondary" onClick={() => setIndex(index - 1)}>
            Back
          </Button>
        )}
        <Button type="submit" disabled={busy && last}>
          {last ? 'Finish' : 'Next'}
        </Button>
      </Row>
    </form>
  );
}
