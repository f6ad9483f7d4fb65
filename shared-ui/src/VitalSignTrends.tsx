import { lazy, Suspense } from 'react';
import styled from 'styled-components';
import { TREND_MAX_RECORDS, type Role, type VitalSignPoint, type VitalSignTrend } from '@careloop/shared-contracts';
import { useVitalSignTrend } from '@careloop/shared-auth';
import { Banner, Card, EmptyState } from './components';
import { theme } from './theme';
import { measuresText, timeText, TREND_PANELS, type TrendPanel } from './vitalSignPanels';

// uPlot and its stylesheet only in this chunk, fetched when a records page shows a trend.
const VitalSignChart = lazy(() => import(/* webpackChunkName: "vital-sign-chart" */ './VitalSignChart'));

const Trends = styled(Card)`
  h2 {
    font-size: 1.15rem;
    margin: 0 0 0.25rem;
    color: ${theme.color.primaryDark};
  }
  details {
    margin-top: 1rem;
  }
  summary {
    cursor: pointer;
    color: ${theme.color.primary};
    font-weight: 600;
  }
`;

const TableScroll = styled.div`
  overflow-x: auto;
  margin-top: 0.5rem;
  table {
    border-collapse: collapse;
    font-size: 0.9rem;
    min-width: 100%;
  }
  caption {
    text-align: left;
    color: ${theme.color.muted};
    padding-bottom: 0.4rem;
  }
  th,
  td {
    border-bottom: 1px solid ${theme.color.border};
    padding: 0.35rem 0.6rem;
    text-align: left;
    white-space: nowrap;
  }
`;

const NOT_MEASURED = 'not measured';

function news2Text(p: VitalSignPoint): string {
  if (!p.news2) return 'not scored';
  return p.news2.complete ? String(p.news2.total) : `at least ${p.news2.total} (incomplete)`;
}

/** An SpO2 is read with the scale it is scored on, and air or oxygen. */
function spo2Text(p: VitalSignPoint): string {
  if (p.oxygenSaturation === null) return NOT_MEASURED;
  const air = p.supplementalOxygen === null ? '' : p.supplementalOxygen ? ', on oxygen' : ', on air';
  return `${p.oxygenSaturation} (scale ${p.spo2Scale}${air})`;
}

/** A vital sign's cell: its measures joined ("128/84"), or not measured. */
function cellText(panel: TrendPanel, p: VitalSignPoint): string {
  if (panel.key === 'oxygenSaturation') return spo2Text(p);
  const values = panel.series.map((s) => s.value(p));
  return values.every((v) => v !== null) ? values.join('/') : NOT_MEASURED;
}

/** The vital signs' panels (the table's columns after NEWS2): shared-contracts VITAL_SIGNS `chart`, in order. */
const VITAL_PANELS = TREND_PANELS.filter((panel) => panel.key !== 'news2');

/** The chart's table alternative: the same numbers, one row per record, oldest first. */
export function VitalSignTable({ trend }: { trend: VitalSignTrend }) {
  return (
    // scrolls sideways on a phone: focusable, so a keyboard can scroll it too
    <TableScroll role="region" aria-label="Vital signs table" tabIndex={0}>
      <table>
        <caption>Vital signs by record, oldest first. “{NOT_MEASURED}”: no usable reading in that record.</caption>
        <thead>
          <tr>
            <th scope="col">Time</th>
            <th scope="col">Record</th>
            <th scope="col">NEWS2</th>
            {VITAL_PANELS.map((panel) => (
              <th key={panel.key} scope="col">
                {panel.title} ({panel.unit})
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {trend.points.map((p) => (
            <tr key={p.recordId}>
              <th scope="row">
                {timeText(p.at)}
                {p.atSource === 'recorded' && ' (written)'}
              </th>
              <td>{p.title}</td>
              <td>{news2Text(p)}</td>
              {VITAL_PANELS.map((panel) => (
                <td key={panel.key}>{cellText(panel, p)}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}

/** The accessible name of the chart: what it shows, over how many records, from when to when. */
export function trendsName(trend: VitalSignTrend): string {
  const n = trend.points.length;
  const first = trend.points[0];
  const last = trend.points.at(-1);
  const span = !first || !last ? '' : n === 1 ? `, ${timeText(first.at)}` : `, ${timeText(first.at)} to ${timeText(last.at)}`;
  return `Vital sign trends: ${measuresText} across ${n} record${n === 1 ? '' : 's'}${span}`;
}

/**
 * The records page's trend of NEWS2 and the vital signs, for either role: the patient's own, or
 * (doctor) the one assigned patient the list is narrowed to. A chart (lazily loaded) with the
 * reference bands shaded, and a table with the same numbers.
 */
export function VitalSignTrends({ role, patientId }: { role: Role; patientId?: string }) {
  // a doctor's trend is of one patient: none while the list spans all their patients
  if (role === 'doctor' && !patientId) return null;
  return <TrendsOf role={role} patientId={role === 'doctor' ? patientId : undefined} />;
}

function TrendsOf({ role, patientId }: { role: Role; patientId?: string }) {
  const trend = useVitalSignTrend(patientId);
  return (
    <Trends aria-labelledby="vital-sign-trends-title">
      <h2 id="vital-sign-trends-title">Vital sign trends</h2>
      {trend.isError && <Banner tone="error">Could not load the vital sign trends. Try again later.</Banner>}
      {trend.data && trend.data.points.length === 0 && (
        <EmptyState>
          {role === 'patient' ? 'No vital signs recorded yet.' : 'No vital signs recorded for this patient yet.'}
        </EmptyState>
      )}
      {trend.data && trend.data.points.length > 0 && (
        <>
          {trend.data.truncated && <p>The latest {TREND_MAX_RECORDS} records are shown.</p>}
          <div role="img" aria-label={trendsName(trend.data)}>
            <Suspense fallback={<p>Loading the chart…</p>}>
              <VitalSignChart trend={trend.data} />
            </Suspense>
          </div>
          <details>
            <summary>Show as table</summary>
            <VitalSignTable trend={trend.data} />
          </details>
        </>
      )}
    </Trends>
  );
}
