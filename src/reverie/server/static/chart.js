// Two small charts drawn as inline SVG: memories over time and the confidence distribution.

import { h, svg, formatDate, plural } from './dom.js';

const PAD = { top: 16, right: 14, bottom: 30, left: 38 };
const HEIGHT = 200;
const PLOT_H = HEIGHT - PAD.top - PAD.bottom;
// Drawn narrower on phones, so that the labels keep a readable size when the chart shrinks.
let WIDTH = 480;
let PLOT_W = WIDTH - PAD.left - PAD.right;

function sizeFor(screenWidth) {
  WIDTH = screenWidth < 640 ? 340 : 480;
  PLOT_W = WIDTH - PAD.left - PAD.right;
}

function frame(titleId, descId, title, description) {
  return svg('svg', {
    class: 'chart', viewBox: `0 0 ${WIDTH} ${HEIGHT}`, role: 'img',
    'aria-labelledby': `${titleId} ${descId}`, preserveAspectRatio: 'xMidYMid meet',
  }, svg('title', { id: titleId }, title), svg('desc', { id: descId }, description));
}

function niceMax(value) {
  if (value <= 4) return 4;
  if (value < 10) return Math.ceil(value / 2) * 2;
  const step = 10 ** Math.floor(Math.log10(value));
  return Math.ceil(value / step) * step;
}

function yAxis(max) {
  const group = svg('g', { class: 'axis' });
  for (const fraction of [0, 0.5, 1]) {
    const y = PAD.top + PLOT_H * (1 - fraction);
    group.append(
      svg('line', { class: 'grid', x1: PAD.left, x2: WIDTH - PAD.right, y1: y, y2: y }),
      svg('text', { x: PAD.left - 6, y: y + 4, 'text-anchor': 'end' }, String(Math.round(max * fraction))),
    );
  }
  return group;
}

function xLabel(x, text, anchor) {
  return svg('text', { class: 'axis', x, y: HEIGHT - 8, 'text-anchor': anchor }, text);
}

function periodLabel(start, bucket) {
  const when = new Date(`${start}T12:00:00`);
  if (bucket === 'month') return when.toLocaleDateString('en-US', { month: 'short', year: 'numeric' });
  return formatDate(when.toISOString());
}

/** Memories kept over time: an area for the running total, bars for what each period added. */
export function timelineChart(data) {
  const points = data.timeline;
  const last = points[points.length - 1];
  const description = points.length
    ? `From ${periodLabel(points[0].start, data.bucket)} to ${periodLabel(last.start, data.bucket)}, `
      + `memories grew to ${last.total}, by ${data.bucket}.`
    : 'No memories yet.';
  const chart = frame('chart-time-title', 'chart-time-desc', 'Memories over time', description);
  const max = niceMax(Math.max(1, ...points.map((p) => p.total)));
  chart.append(yAxis(max));
  if (!points.length) return chart;
  const barWidth = Math.max(2, Math.min(18, (PLOT_W / points.length) * 0.6));
  const inner = PLOT_W - barWidth;
  const step = inner / Math.max(1, points.length - 1);
  const xOf = (i) => PAD.left + barWidth / 2 + (points.length === 1 ? inner / 2 : i * step);
  const yOf = (v) => PAD.top + PLOT_H * (1 - v / max);
  const bars = svg('g', { class: 'bars-new' });
  points.forEach((p, i) => {
    const added = p.facts + p.preferences;
    if (!added) return;
    bars.append(svg('rect', { x: xOf(i) - barWidth / 2, y: yOf(added), width: barWidth,
      height: PLOT_H * (added / max) }, svg('title', {}, `${periodLabel(p.start, data.bucket)}: `
        + `${plural(p.facts, 'fact')} and ${plural(p.preferences, 'preference')} added`)));
  });
  const line = points.map((p, i) => `${xOf(i)},${yOf(p.total)}`).join(' ');
  const area = `${xOf(0)},${yOf(0)} ${line} ${xOf(points.length - 1)},${yOf(0)}`;
  chart.append(
    svg('polygon', { class: 'area-total', points: area }),
    bars,
    svg('polyline', { class: 'line-total', points: line }),
    svg('circle', { class: 'dot-total', cx: xOf(points.length - 1), cy: yOf(last.total), r: 4 },
      svg('title', {}, `${last.total} memories now`)),
    xLabel(PAD.left, periodLabel(points[0].start, data.bucket), 'start'),
    xLabel(WIDTH - PAD.right, periodLabel(last.start, data.bucket), 'end'),
  );
  return chart;
}

function band(low) {
  if (low >= 0.8) return 'high';
  if (low >= 0.5) return 'medium';
  return 'low';
}

/** How confident Reverie is in what it keeps: ten bars from 0-10% to 90-100%. */
export function confidenceChart(bins) {
  const counts = bins.map((b) => b.facts + b.preferences);
  const high = bins.filter((b) => b.low >= 0.8).reduce((n, b) => n + b.facts + b.preferences, 0);
  const total = counts.reduce((a, b) => a + b, 0);
  const description = total
    ? `${high} of ${plural(total, 'memory', 'memories')} have a confidence of 80% or more.`
    : 'No memories yet.';
  const chart = frame('chart-conf-title', 'chart-conf-desc', 'Confidence distribution', description);
  const max = niceMax(Math.max(1, ...counts));
  chart.append(yAxis(max));
  const slot = PLOT_W / bins.length;
  bins.forEach((b, i) => {
    const count = counts[i];
    const height = PLOT_H * (count / max);
    chart.append(svg('rect', { class: `bar bar-${band(b.low)}`, x: PAD.left + i * slot + 3,
      y: PAD.top + PLOT_H - height, width: slot - 6, height },
    svg('title', {}, `${Math.round(b.low * 100)}–${Math.round(b.high * 100)}%: ${count}`)));
  });
  chart.append(
    xLabel(PAD.left, '0%', 'start'),
    xLabel(PAD.left + PLOT_W / 2, '50%', 'middle'),
    xLabel(WIDTH - PAD.right, '100%', 'end'),
  );
  return chart;
}

/** Both charts with their captions and a legend. */
export function chartsCard(data) {
  sizeFor(window.innerWidth);
  const legend = h('p', { class: 'legend' },
    h('span', { class: 'key key-high' }, 'over 80%'),
    h('span', { class: 'key key-medium' }, '50–80%'),
    h('span', { class: 'key key-low' }, 'under 50%'));
  return h('div', { class: 'charts' },
    h('figure', { class: 'chart-box' }, h('figcaption', {}, 'Memories over time'), timelineChart(data)),
    h('figure', { class: 'chart-box' }, h('figcaption', {}, 'Confidence'), confidenceChart(data.confidence),
      legend));
}
