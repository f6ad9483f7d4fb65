import { fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import type { MedicationAlert } from '@careloop/shared-contracts';
import { MedicationAlerts, hasStop, overrideSatisfied } from './MedicationAlerts';

const alert = (over: Partial<MedicationAlert>): MedicationAlert => ({
  kind: 'allergy',
  severity: 'warning',
  substance: 'Penicillin',
  matchedText: 'Amoxicillin',
  message: 'Amoxicillin is a penicillin.',
  source: 'test',
  ...over,
});

function Harness({ alerts }: { alerts: MedicationAlert[] }) {
  const [reason, setReason] = useState('');
  return (
    <>
      <MedicationAlerts alerts={alerts} reason={reason} onReasonChange={setReason} />
      <output aria-label="may finish">{String(overrideSatisfied(alerts, reason))}</output>
    </>
  );
}

test('nothing at all without alerts', () => {
  const { container } = render(<Harness alerts={[]} />);
  expect(screen.queryByRole('region', { name: 'Medication alerts' })).toBeNull();
  expect(container).toHaveTextContent('true');
});

test('stops come first and are announced, whatever order the alerts arrive in; "read as" shown once', () => {
  render(
    <Harness
      alerts={[
        alert({ severity: 'info', kind: 'intolerance', substance: 'Codeine', message: 'Codeine intolerance.' }),
        alert({ severity: 'stop', matchedText: 'amoxicilin', readAs: 'amoxicillin', message: 'Penicillin anaphylaxis.' }),
        alert({ severity: 'stop', readAs: 'amoxicillin', message: 'amoxicilin (read as amoxicillin) is a penicillin.' }),
      ]}
    />,
  );
  const stop = screen.getByRole('alert', { name: 'Stop alerts' });
  expect(stop).toHaveTextContent('Stop: Penicillin anaphylaxis. (read as amoxicillin)');
  // the message says it already: not repeated
  expect(stop.textContent?.match(/read as amoxicillin/g)).toHaveLength(2);
  const region = screen.getByRole('region', { name: 'Medication alerts' });
  expect(region.textContent?.indexOf('Stop')).toBeLessThan(region.textContent!.indexOf('Information: Codeine intolerance.'));
  expect(screen.queryByLabelText('Warning alerts')).toBeNull();
  // info is not announced as an alert
  expect(screen.getAllByRole('alert')).toHaveLength(1);
});

test('a stop asks for a reason of at least 3 characters; warnings alone do not', () => {
  const { unmount } = render(<Harness alerts={[alert({ severity: 'stop' })]} />);
  const reason = screen.getByLabelText('Reason to override');
  expect(reason).toBeRequired();
  expect(screen.getByLabelText('may finish')).toHaveTextContent('false');
  fireEvent.change(reason, { target: { value: '  ab  ' } });
  expect(screen.getByLabelText('may finish')).toHaveTextContent('false');
  fireEvent.change(reason, { target: { value: 'abc' } });
  expect(screen.getByLabelText('may finish')).toHaveTextContent('true');
  unmount();
  render(<Harness alerts={[alert({ severity: 'warning' })]} />);
  expect(screen.queryByLabelText('Reason to override')).toBeNull();
  expect(screen.getByLabelText('Warning alerts')).toHaveTextContent('Warning: Amoxicillin is a penicillin.');
  expect(hasStop([alert({ severity: 'warning' }), alert({ severity: 'info' })])).toBe(false);
});
