// `npm run bench:charts`: draws the performance guide's SVG charts from the
// bench results in bench/results/*.json (nothing is measured here). A case or
// a results file that is absent is left out of its chart, not invented.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..');
const RESULTS = path.join(ROOT, 'bench', 'results');
const IMAGES = path.join(ROOT, 'docs', 'images');

interface Series {
  name: string;
  color: string;
}

interface Row {
  label: string;
  /** One value per series; `undefined`: not measured. */
  values: Array<number | undefined>;
}

interface Chart {
  title: string;
  unit: string;
  series: Series[];
  rows: Row[];
  note?: string;
}

const escape = (text: string): string => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const format = (value: number): string => (value >= 100 ? Math.round(value).toLocaleString('en-US') : String(Math.round(value * 10) / 10));

/** A horizontal bar chart: one group of bars per row, one bar per series. */
export function barChart(chart: Chart): string {
  const labelWidth = 190;
  const plotWidth = 420;
  const bar = 16;
  const gap = 4;
  const groupGap = 14;
  const top = 46;
  const max = Math.max(...chart.rows.flatMap((r) => r.values.filter((v): v is number => v !== undefined)), 1);
  const groupHeight = chart.series.length * (bar + gap) + groupGap;
  const height = top + chart.rows.length * groupHeight + 40;
  const width = labelWidth + plotWidth + 110;
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="system-ui, sans-serif" font-size="12">`,
    `<rect width="${width}" height="${height}" fill="#ffffff"/>`,
    `<text x="12" y="22" font-size="15" font-weight="600">${escape(chart.title)}</text>`,
  ];
  chart.series.forEach((s, i) => {
    const x = labelWidth + i * 130;
    parts.push(`<rect x="${x}" y="30" width="10" height="10" fill="${s.color}"/><text x="${x + 14}" y="39">${escape(s.name)}</text>`);
  });
  chart.rows.forEach((row, r) => {
    const y0 = top + r * groupHeight;
    parts.push(`<text x="${labelWidth - 8}" y="${y0 + (chart.series.length * (bar + gap)) / 2 + 4}" text-anchor="end">${escape(row.label)}</text>`);
    row.values.forEach((value, s) => {
      const y = y0 + s * (bar + gap);
      if (value === undefined) {
        parts.push(`<text x="${labelWidth + 4}" y="${y + 12}" fill="#888">not measured</text>`);
        return;
      }
      const w = Math.max(1, (value / max) * plotWidth);
      parts.push(`<rect x="${labelWidth}" y="${y}" width="${w.toFixed(1)}" height="${bar}" fill="${chart.series[s]!.color}"/>`);
      parts.push(`<text x="${(labelWidth + w + 6).toFixed(1)}" y="${y + 12}">${format(value)} ${escape(chart.unit)}</text>`);
    });
  });
  if (chart.note !== undefined) parts.push(`<text x="12" y="${height - 12}" fill="#555">${escape(chart.note)}</text>`);
  parts.push('</svg>');
  return `${parts.join('\n')}\n`;
}

function read(name: string): Record<string, unknown> | undefined {
  const file = path.join(RESULTS, name);
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>) : undefined;
}

type Median = { rps?: number; p99Ms?: number };
function median(results: Record<string, unknown>, name: string, latency: string): Median | undefined {
  const cases = results[name] as Record<string, { median?: Median }> | undefined;
  return cases?.[latency]?.median;
}

const LATENCIES: Series[] = [{ name: 'E2 answers at 0 ms', color: '#4e79a7' }, { name: 'E2 answers at 5 ms', color: '#f28e2b' }];
// Labels of the steady-state cases; absent ones (a bench without the floor case) are skipped.
const CASES: Array<[string, string]> = [
  ['unprotected', 'no authentication'],
  ['floor', 'floor (one E2 POST, undici)'],
  ['library', 'requireGameUser alone'],
  ['ours', 'ours (example app)'],
  ['ours-cached', 'ours, cache on'],
  ['baseline', 'naive baseline'],
];

function steadyCharts(latest: Record<string, unknown>): Record<string, string> {
  const present = CASES.filter(([key]) => latest[key] !== undefined);
  const rows = (pick: (m: Median | undefined) => number | undefined): Row[] =>
    present.map(([key, label]) => ({ label, values: ['latency_0ms', 'latency_5ms'].map((l) => pick(median(latest, key, l))) }));
  const note = `bench/results/latest.json, ${String(latest.generatedAt ?? '').slice(0, 10)}: medians of the rounds, 50 connections, 2 cores`;
  return {
    'steady-rps.svg': barChart({ title: 'Requests per second (higher is better)', unit: 'req/s', series: LATENCIES, rows: rows((m) => m?.rps), note }),
    'steady-p99.svg': barChart({ title: 'p99 latency (lower is better)', unit: 'ms', series: LATENCIES, rows: rows((m) => m?.p99Ms), note }),
  };
}

function scaleOutChart(latest: Record<string, unknown>): Record<string, string> {
  const scale = latest.scaleOut as { instances?: number; players?: number; requestsPerPlayer?: number; e2Calls?: Record<string, number> } | undefined;
  if (scale?.e2Calls === undefined) return {};
  const calls = scale.e2Calls;
  return {
    'scale-out-e2.svg': barChart({
      title: `E2 calls for ${scale.players ?? '?'} players x ${scale.requestsPerPlayer ?? '?'} requests on ${scale.instances ?? '?'} instances (lower is better)`,
      unit: 'calls',
      series: [{ name: 'E2 calls', color: '#59a14f' }],
      rows: [
        { label: 'no cache', values: [calls.noCache] },
        { label: 'a cache per instance', values: [calls.perInstanceCache] },
        { label: 'shared Redis cache', values: [calls.sharedRedis] },
      ],
      note: 'npm run bench:scale-out (bench/results/latest.json, scaleOut)',
    }),
  };
}

function handshakeCharts(realtime: Record<string, unknown> | undefined): Record<string, string> {
  const ours = realtime?.ours as { handshakesPerS?: number; heapPerConnectionBytes?: number } | undefined;
  const bare = realtime?.unauthenticated as { handshakesPerS?: number; heapPerConnectionBytes?: number } | undefined;
  if (ours === undefined || bare === undefined) return {};
  const note = 'npm run bench:realtime (bench/results/realtime.json): 10,000 Socket.IO connections over 1,000 tokens';
  return {
    'handshakes.svg': barChart({
      title: 'Socket.IO handshakes per second, 200 opening at once (higher is better)',
      unit: '/s',
      series: [{ name: 'handshakes/s', color: '#76b7b2' }],
      rows: [{ label: 'no authentication', values: [bare.handshakesPerS] }, { label: 'ours', values: [ours.handshakesPerS] }],
      note,
    }),
    'connection-heap.svg': barChart({
      title: 'Heap per live connection (lower is better)',
      unit: 'B',
      series: [{ name: 'bytes', color: '#e15759' }],
      rows: [{ label: 'no authentication', values: [bare.heapPerConnectionBytes] }, { label: 'ours', values: [ours.heapPerConnectionBytes] }],
      note,
    }),
  };
}

function frameworkChart(frameworks: Record<string, unknown> | undefined): Record<string, string> {
  const cases = (frameworks?.frameworks as { cases?: Record<string, { median?: Median }> } | undefined)?.cases;
  if (cases === undefined) return {};
  const rps = (key: string): number | undefined => cases[key]?.median?.rps;
  return {
    'frameworks-rps.svg': barChart({
      title: 'Express and Fastify, requests per second (higher is better)',
      unit: 'req/s',
      series: [{ name: 'Express', color: '#4e79a7' }, { name: 'Fastify', color: '#b07aa1' }],
      rows: [
        { label: 'no authentication', values: [rps('express-unprotected'), rps('fastify-unprotected')] },
        { label: 'protected', values: [rps('express-protected'), rps('fastify-protected')] },
        { label: 'protected, cache on', values: [rps('express-cached'), rps('fastify-cached')] },
      ],
      note: 'bench/results/frameworks.json: E2 at 0 ms, 50 connections, medians of 3 rounds',
    }),
  };
}

function main(): void {
  const latest = read('latest.json');
  const charts: Record<string, string> = {
    ...(latest === undefined ? {} : { ...steadyCharts(latest), ...scaleOutChart(latest) }),
    ...handshakeCharts(read('realtime.json')),
    ...frameworkChart(read('frameworks.json')),
  };
  mkdirSync(IMAGES, { recursive: true });
  for (const [name, svg] of Object.entries(charts)) {
    writeFileSync(path.join(IMAGES, name), svg);
    console.log(`docs/images/${name}`);
  }
  if (latest !== undefined && latest.floor === undefined) console.log('(no floor case in latest.json: run npm run bench to add it)');
}

if (process.argv[1] !== undefined && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) main();
