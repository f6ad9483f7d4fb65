import { useEffect, useRef } from 'react';
import styled, { createGlobalStyle } from 'styled-components';
import uPlot from 'uplot';
import uplotCss from 'uplot/dist/uPlot.min.css';
import { formatDate, formatDateTime, type VitalSignTrend } from '@careloop/shared-contracts';
import { theme } from './theme';
import { TREND_PANELS, type BandTone, type TrendPanel } from './vitalSignPanels';

/*
 * The trend chart itself: the only module that imports uPlot, loaded lazily by VitalSignTrends
 * (its own chunk). One small panel per measure; the wrapper there carries role="img" and the name,
 * the table there the same numbers. A null reading is a gap, never drawn as a value.
 */

const UplotStyle = createGlobalStyle`${uplotCss}`;

const Panels = styled.div`
  display: grid;
  /* two or three across on a wide screen, stacked on a phone (390 px) */
  grid-template-columns: repeat(auto-fill, minmax(min(100%, 17rem), 1fr));
  gap: 1rem;
  margin-top: 0.75rem;
  h3 {
    font-size: 0.95rem;
    margin: 0;
    color: ${theme.color.primaryDark};
  }
  small {
    display: block;
    color: ${theme.color.muted};
  }
  .uplot {
    width: 100%;
    font-family: inherit;
  }
`;

const HEIGHT = 150;
const BAND_FILL: Record<BandTone, string> = {
  normal: 'rgba(21, 128, 61, 0.13)',
  low: 'rgba(21, 128, 61, 0.10)',
  medium: 'rgba(217, 119, 6, 0.16)',
  high: 'rgba(185, 28, 28, 0.14)',
};
const LINE = [theme.color.primary, theme.color.accent];

/** The chart's time axis: the clinic's local wall time, as the api gives it, drawn as is (UTC, no browser shift). */
const seconds = (at: string) => Date.parse(`${at}:00Z`) / 1000;

function yRange(panel: TrendPanel, trend: VitalSignTrend, bands: { low: number; high: number }[]): [number, number] {
  const values = panel.series.flatMap((s) => trend.points.map(s.value)).filter((v): v is number => v !== null);
  // NEWS2 runs to 20, but a scale to 20 flattens what matters: from 0 to just into the high band, or the data
  if (panel.integer) return [-0.5, Math.max(8, ...values) + 0.5];
  const lo = Math.min(...values, ...bands.map((b) => b.low));
  const hi = Math.max(...values, ...bands.map((b) => b.high));
  const pad = Math.max((hi - lo) * 0.1, 1);
  return [lo - pad, hi + pad];
}

function PanelChart({ panel, trend }: { panel: TrendPanel; trend: VitalSignTrend }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const bands = panel.bands(trend);
    const half = panel.integer ? 0.5 : 0;
    const xs = trend.points.map((p) => seconds(p.at));
    const first = Math.min(...xs);
    const last = Math.max(...xs);
    const data: uPlot.AlignedData = [xs, ...panel.series.map((s) => trend.points.map(s.value))];
    const range = yRange(panel, trend, bands);
    const plot = new uPlot(
      {
        width: Math.max(el.clientWidth, 200),
        height: HEIGHT,
        // room on the right for the half of the last date label ("21 Nov 2026") past the plot's edge
        padding: [null, 36, null, null],
        tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), 'Etc/UTC'),
        // the panel's note says which line is which; the values are in the table
        legend: { show: false },
        cursor: { drag: { x: false, y: false } },
        scales: {
          // a margin either side so the first and last points are not cut by the edge (half a day for one time);
          // from the data, not the arguments: uPlot widens a single time by 1000 days before it asks
          x: {
            time: true,
            range: () =>
              first === last ? [first - 43200, last + 43200] : [first - (last - first) * 0.05, last + (last - first) * 0.05],
          },
          y: { range: () => range },
        },
        axes: [
          // the one date format ("12 Mar 2026", with the time over a short span), not uPlot's 3/12
          {
            stroke: theme.color.muted,
            space: 110,
            values: (_u, splits) =>
              splits.map((s) => (last - first < 2 * 86400 ? formatDateTime : formatDate)(new Date(s * 1000), 'UTC')),
          },
          { stroke: theme.color.muted, size: 40 },
        ],
        series: [
          {},
          ...panel.series.map((s, i) => ({
            label: s.label,
            stroke: LINE[i % LINE.length],
            width: 2,
            dash: s.dashed ? [6, 4] : undefined,
            spanGaps: false,
            points: { show: true, size: 7, fill: LINE[i % LINE.length] },
          })),
        ],
        hooks: {
          // the reference bands under the lines, clipped to the plotting area
          drawClear: [
            (u) => {
              const { ctx, bbox } = u;
              ctx.save();
              ctx.beginPath();
              ctx.rect(bbox.left, bbox.top, bbox.width, bbox.height);
              ctx.clip();
              for (const b of bands) {
                const top = u.valToPos(b.high + half, 'y', true);
                const bottom = u.valToPos(b.low - half, 'y', true);
                ctx.fillStyle = BAND_FILL[b.tone];
                ctx.fillRect(bbox.left, Math.min(top, bottom), bbox.width, Math.abs(bottom - top));
              }
              ctx.restore();
            },
          ],
        },
      },
      data,
      el,
    );
    const resize = new ResizeObserver(() => plot.setSize({ width: Math.max(el.clientWidth, 200), height: HEIGHT }));
    resize.observe(el);
    return () => {
      resize.disconnect();
      plot.destroy();
    };
  }, [panel, trend]);
  return <div ref={box} />;
}

function Panel({ panel, trend }: { panel: TrendPanel; trend: VitalSignTrend }) {
  const measured = panel.series.some((s) => trend.points.some((p) => s.value(p) !== null));
  const note = panel.note?.(trend);
  return (
    <section>
      <h3>
        {panel.title} <small style={{ display: 'inline' }}>({panel.unit})</small>
      </h3>
      {measured ? <PanelChart panel={panel} trend={trend} /> : <p>Not measured in these records.</p>}
      {note && <small>{note}</small>}
    </section>
  );
}

export default function VitalSignChart({ trend }: { trend: VitalSignTrend }) {
  return (
    <>
      <UplotStyle />
      <Panels>
        {TREND_PANELS.map((panel) => (
          <Panel key={panel.key} panel={panel} trend={trend} />
        ))}
      </Panels>
    </>
  );
}
