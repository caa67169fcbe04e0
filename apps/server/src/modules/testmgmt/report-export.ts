import type { TestReport } from '@loggerhead/contract';
import { CSV_BOM, csvLine } from '../../lib/csv.ts';

/** A test report as a file: a self-contained HTML page, or CSV (sections of metrics, checks and tables). */

const esc = (s: unknown) =>
  String(s ?? '').replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string);

const iso = (ms: number) =>
  new Date(ms)
    .toISOString()
    .replace('T', ' ')
    .replace(/\.\d+Z$/, ' UTC');

/** A CSV cell: quoted when it holds a comma, quote or line break; a leading = + - @ is defused for spreadsheets. */
const line = (cells: unknown[]) => csvLine(cells);

export function reportCsv(r: TestReport): string {
  let out = '';
  out += line(['report', r.routine_name]);
  out += line(['device', r.things_name]);
  out += line(['verdict', r.verdict]);
  out += line(['script', `${r.script_name} v${r.script_version}`]);
  out += line(['parameters', JSON.stringify(r.params)]);
  for (const w of r.windows) out += line(['window', iso(w.from), iso(w.to)]);
  out += line(['frames', r.frames]);
  if (r.error) out += line(['error', r.error.kind, r.error.message, r.error.line ?? '']);
  out += '\r\n';
  out += line(['metric', 'value', 'unit']);
  for (const m of r.metrics) out += line([m.name, m.value, m.unit ?? '']);
  out += '\r\n';
  out += line(['check', 'passed']);
  for (const c of r.checks) out += line([c.name, c.passed]);
  for (const t of r.tables) {
    out += '\r\n';
    out += line([`table: ${t.name}`]);
    out += line(t.columns);
    for (const row of t.rows) out += line(row);
  }
  return `${CSV_BOM}${out}`;
}

/** A polyline of a chart's points, scaled into a 600 × 160 box. */
function svgChart(times: number[], values: (number | null)[]): string {
  const pts = times.map((t, i) => [t, values[i]] as const).filter((p): p is readonly [number, number] => p[1] !== null);
  if (pts.length < 2) return '';
  const [t0, t1] = [pts[0][0], pts[pts.length - 1][0]];
  let lo = Math.min(...pts.map((p) => p[1]));
  let hi = Math.max(...pts.map((p) => p[1]));
  if (hi === lo) {
    hi += 1;
    lo -= 1;
  }
  const x = (t: number) => (((t - t0) / (t1 - t0 || 1)) * 590 + 5).toFixed(1);
  const y = (v: number) => (155 - ((v - lo) / (hi - lo)) * 150).toFixed(1);
  return `<svg viewBox="0 0 600 160" width="600" height="160" role="img"><rect width="600" height="160" fill="#fafafa" stroke="#ddd"/><polyline fill="none" stroke="#1677ff" stroke-width="1.2" points="${pts.map((p) => `${x(p[0])},${y(p[1])}`).join(' ')}"/><text x="6" y="14" font-size="11">${esc(hi)}</text><text x="6" y="154" font-size="11">${esc(lo)}</text></svg>`;
}

export function reportHtml(r: TestReport): string {
  const verdictColor = r.verdict === 'pass' ? '#389e0d' : r.verdict === 'fail' ? '#cf1322' : '#d46b08';
  const rows = (cells: unknown[], tag = 'td') => `<tr>${cells.map((c) => `<${tag}>${esc(c)}</${tag}>`).join('')}</tr>`;
  const parts = [
    '<!doctype html><html><head><meta charset="utf-8">',
    `<title>${esc(r.routine_name)} — ${esc(r.things_name)}</title>`,
    '<style>body{font-family:system-ui,sans-serif;margin:24px;color:#222}table{border-collapse:collapse;margin:8px 0 20px}td,th{border:1px solid #ddd;padding:4px 8px;text-align:left}th{background:#f5f5f5}pre{background:#f7f7f7;padding:8px;white-space:pre-wrap}</style>',
    '</head><body>',
    `<h1>${esc(r.routine_name)}</h1>`,
    `<p>Verdict / 结论: <b style="color:${verdictColor}">${esc(r.verdict.toUpperCase())}</b></p>`,
    '<table>',
    rows(['Device / 设备', r.things_name]),
    rows(['Script / 脚本', `${r.script_name} v${r.script_version}`]),
    rows(['Parameters / 参数', JSON.stringify(r.params)]),
    ...r.windows.map((w) => rows([r.dry_run ? 'Range / 范围' : 'Collected / 采集', `${iso(w.from)} – ${iso(w.to)}`])),
    rows(['Frames / 帧数', r.frames]),
    rows(['Report time / 报告时间', iso(r.created_at)]),
    '</table>',
  ];
  if (r.error)
    parts.push(
      `<h2>Error / 错误</h2><pre>${esc(`${r.error.kind}: ${r.error.message}${r.error.line ? ` (line ${r.error.line})` : ''}`)}</pre>`,
    );
  if (r.metrics.length)
    parts.push(
      '<h2>Metrics / 指标</h2><table>',
      rows(['Name', 'Value', 'Unit'], 'th'),
      ...r.metrics.map((m) => rows([m.name, m.value, m.unit ?? ''])),
      '</table>',
    );
  if (r.checks.length)
    parts.push(
      '<h2>Checks / 检查</h2><table>',
      rows(['Check', 'Result'], 'th'),
      ...r.checks.map((c) => rows([c.name, c.passed ? 'pass ✓' : 'FAIL ✗'])),
      '</table>',
    );
  for (const t of r.tables)
    parts.push(`<h2>${esc(t.name)}</h2><table>`, rows(t.columns, 'th'), ...t.rows.map((row) => rows(row)), '</table>');
  for (const c of r.charts)
    parts.push(`<h2>${esc(`${c.message}.${c.signal}`)}${c.unit ? ` (${esc(c.unit)})` : ''}</h2>`, svgChart(c.times, c.values));
  if (r.log) parts.push('<h2>Log / 日志</h2>', `<pre>${esc(r.log)}</pre>`);
  parts.push('</body></html>');
  return parts.join('\n');
}
