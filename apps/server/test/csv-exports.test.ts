import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import type { TestReport } from '@loggerhead/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { csvCell, csvLine } from '../src/lib/csv.ts';
import { reportCsv } from '../src/modules/testmgmt/report-export.ts';
import { activeTenant } from './accounts.factory.ts';
import { createTestApp, loginAdmin, type TestApp } from './helper.ts';
import { bind, ingestFrames, rampFrame, uploadDbc } from './signals.fixtures.ts';
import { makeDevice, makeTenant, type TenantFixture } from './things.fixtures.ts';

/**
 * Every CSV export goes through the one writer (src/lib/csv.ts), which writes no text a spreadsheet
 * would run: a text cell starting with = + - @, a TAB or a CR gets a leading `'`; numbers stay numbers.
 */

/** What a spreadsheet takes for a formula, one of each kind. */
const FORMULAS = ["=cmd|' /C calc'!A0", '+1+1', '-2+3', '@SUM(A1)', '\t=1+1', '\r=1+1'];

/** The cells of a CSV text (RFC 4180: quoted cells, doubled quotes, CRLF or LF rows). */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  const s = text.replace(/^\uFEFF/, '');
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (quoted) {
      if (c === '"' && s[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(cell);
      cell = '';
    } else if (c === '\n' || (c === '\r' && s[i + 1] === '\n')) {
      if (c === '\r') i++;
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
    } else cell += c;
  }
  if (cell || row.length) rows.push([...row, cell]);
  return rows;
}

/** No cell of these rows starts as a formula would. */
function noFormula(rows: string[][]) {
  for (const row of rows) for (const cell of row) expect(cell, JSON.stringify(row)).not.toMatch(/^[=+@\t\r]|^-(?!\d+(\.\d+)?$)/);
}

describe('the CSV writer', () => {
  it('neutralises each text cell that starts as a formula, quotes where needed, and keeps numbers numbers', () => {
    for (const f of FORMULAS) expect(parseCsv(csvLine([f]))[0][0]).toBe(`'${f}`);
    expect(csvLine([-5, 1.5, true, 0, null, undefined, new Date(0)])).toBe('-5,1.5,true,0,,,1970-01-01T00:00:00.000Z\r\n');
    // A name that looks like a number is text all the same.
    expect(csvCell('-5')).toBe("'-5");
    expect(csvCell('a "b", c')).toBe('"a ""b"", c"');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
    expect(csvCell('km/h')).toBe('km/h');
    expect(parseCsv(csvLine(['x', '=1', 'y\r\nz'], '\n'))).toEqual([['x', "'=1", 'y\r\nz']]);
  });

  it('is the only one: no module of the server writes CSV cells of its own', () => {
    const src = path.resolve(import.meta.dirname, '../src');
    const files: string[] = [];
    const walk = (dir: string) => {
      for (const name of readdirSync(dir)) {
        const p = path.join(dir, name);
        if (statSync(p).isDirectory()) walk(p);
        else if (p.endsWith('.ts') && !p.endsWith('.test.ts')) files.push(p);
      }
    };
    walk(src);
    // A CSV cell written by hand doubles its quotes; only the writer does that.
    const own = files.filter((f) => /replace(All)?\(\s*(\/"\/g|'"')\s*,\s*'""'\s*\)/.test(readFileSync(f, 'utf8')));
    expect(own.map((f) => path.relative(src, f))).toEqual(['lib/csv.ts']);
  });
});

describe('every CSV export, with formulas in its texts', () => {
  let t: TestApp;
  let a: TenantFixture;
  const T0 = Date.UTC(2026, 2, 1, 8, 0, 0) * 1000;

  beforeAll(async () => {
    t = await createTestApp();
    a = await makeTenant(t);
  });
  afterAll(async () => {
    await t?.close();
  });
  const get = (url: string, auth = a.auth) => t.app.inject({ method: 'GET', url, headers: { authorization: auth } });

  it('the device export', async () => {
    for (const [i, f] of FORMULAS.entries()) await makeDevice(t, a, { name: `${['-5', '+86', '@dev', '=d'][i % 4]}${i}`, description: f });
    const res = await get(`/v1/things/tenants/${a.tenantId}/things/export?current_page=1&page_size=100`);
    expect(res.statusCode, res.body).toBe(200);
    const rows = parseCsv(res.body);
    expect(rows[0]).toEqual(['third_things_id', 'name', 'type', 'description', 'is_online', 'collected', 'created_at']);
    expect(
      rows
        .slice(1)
        .map((r) => r[3])
        .sort(),
    ).toEqual(FORMULAS.map((f) => `'${f}`).sort());
    expect(rows.slice(1).map((r) => r[1])).toContain("'-50");
    noFormula(rows);
  });

  it('the signal export and the statistics results, with a DBC unit that is a formula', async () => {
    const unit = FORMULAS[0];
    const dbc = `VERSION ""\n\nNS_ :\n\nBS_:\n\nBU_: ECU\n\nBO_ 256 RAMP: 8 ECU\n SG_ Value : 0|16@1+ (0.5,-10) [-10|32757.5] "${unit}" ECU\n`;
    const up = await uploadDbc(t, a, 'formula.dbc', dbc);
    expect(up.statusCode, up.body).toBe(200);
    const dev = await makeDevice(t, a);
    expect((await bind(t, a, dev.id, 0, { dbc_id: up.json().id })).statusCode).toBe(200);
    await ingestFrames(
      t,
      a.tenantId,
      dev.id,
      Array.from({ length: 5 }, (_, i) => rampFrame(T0 + i * 10_000, i)),
      1,
    );
    const signals = await get(
      `/v1/data-mgmt/tenants/${a.tenantId}/things/${dev.id}/signals/export?signals=RAMP.Value&begin_time=${T0 / 1000}&end_time=${T0 / 1000 + 1000}`,
    );
    expect(signals.statusCode, signals.body).toBe(200);
    const rows = parseCsv(signals.body);
    expect(rows).toHaveLength(6);
    // The unit is text, neutralised; the value -10 (raw 0 × 0.5 − 10) is a number and stays one.
    expect(rows[1].slice(3)).toEqual(['RAMP', 'Value', '-10', `'${unit}`]);
    noFormula(rows);

    const task = await t.app.inject({
      method: 'POST',
      url: `/v1/data-mgmt/tenants/${a.tenantId}/statistics-tasks`,
      headers: { authorization: a.auth },
      payload: {
        name: '@SUM(A1)',
        method: 'mean',
        things_ids: [dev.id],
        signals: [{ message: 'RAMP', signal: 'Value', channel: 0 }],
        period: 'day',
      },
    });
    expect(task.statusCode, task.body).toBe(200);
    const day = Date.UTC(2026, 2, 1);
    const run = await t.app.inject({
      method: 'POST',
      url: `/v1/data-mgmt/tenants/${a.tenantId}/statistics-tasks/${task.json().id}/run`,
      headers: { authorization: a.auth },
      payload: { begin_time: day, end_time: day + 86_400_000 },
    });
    expect(run.statusCode, run.body).toBe(200);
    const stats = await get(`/v1/data-mgmt/tenants/${a.tenantId}/statistics-results-csv-file?task_id=${task.json().id}`);
    expect(stats.statusCode, stats.body).toBe(200);
    const srows = parseCsv(stats.body);
    expect(srows).toHaveLength(2);
    expect(srows[1][0]).toBe("'@SUM(A1)");
    expect(srows[1][7]).toBe(`'${unit}`);
    // The mean of -10, -9.5, … -8 is a number: not neutralised.
    expect(Number(srows[1][6])).toBe(-9);
    noFormula(srows);
  });

  it('the tenant list', async () => {
    const admin = await loginAdmin(t.app);
    const names: string[] = [];
    // (Registration trims the name: a leading TAB does not reach the list.)
    for (const f of ['-2+3', '@SUM(A1)', '=1+1']) names.push((await activeTenant(t, { organization_name: f })).username);
    const res = await get('/v1/tenant/tenants-csv-file', admin);
    expect(res.statusCode, res.body).toBe(200);
    const rows = parseCsv(res.body);
    const col = rows[0].indexOf('organization_name');
    const ours = rows.filter((r) => names.includes(r[rows[0].indexOf('name')]));
    expect(ours.map((r) => r[col]).sort()).toEqual(["'-2+3", "'=1+1", "'@SUM(A1)"]);
    noFormula(rows);
  });

  it('the test report', () => {
    const report = {
      run_id: 'r',
      things_id: 't',
      things_name: '=HYPERLINK("x")',
      routine_name: '+routine',
      dry_run: false,
      verdict: 'passed',
      metrics: [{ name: '@metric', value: -5, unit: '\r=1' }],
      tables: [{ name: 't', columns: ['-col'], rows: [['=1+1'], [-3]] }],
      checks: [{ name: '\tcheck', passed: true }],
      charts: [],
      log: '',
      error: null,
      script_id: null,
      script_name: 's',
      script_version: 1,
      params: {},
      windows: [],
      frames: 0,
      created_at: 0,
    } as unknown as TestReport;
    const rows = parseCsv(reportCsv(report));
    const cells = rows.flat();
    for (const text of ['=HYPERLINK("x")', '+routine', '@metric', '\r=1', '-col', '=1+1', '\tcheck']) expect(cells).toContain(`'${text}`);
    expect(rows).toContainEqual(["'@metric", '-5', "'\r=1"]);
    expect(rows).toContainEqual(['-3']);
    noFormula(rows);
  });
});
