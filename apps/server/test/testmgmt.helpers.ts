import type { TestApp } from './helper.ts';
import { poll } from './poll.ts';
import type { TenantFixture } from './things.fixtures.ts';

/** Test management's API for one tenant, as a caller (`auth`, the manager by default) sees it. */
export function testApi(t: TestApp, tenant: TenantFixture, auth = tenant.auth) {
  const base = `/v1/test-mgmt/tenants/${tenant.tenantId}`;
  const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, payload?: unknown) =>
    t.app.inject({
      method,
      url: `${base}${path}`,
      headers: { authorization: auth },
      ...(payload !== undefined ? { payload: payload as object } : {}),
    });
  return {
    base,
    call,
    /** Creates a script; throws unless it was created. */
    async script(name: string, content: string, notes = '') {
      const r = await call('POST', '/scripts', { name, content, notes });
      if (r.statusCode !== 200) throw new Error(`script create: ${r.statusCode} ${r.body}`);
      return r.json() as { id: string; version: number; name: string };
    },
    async routine(body: Record<string, unknown>) {
      const r = await call('POST', '/routines', body);
      if (r.statusCode !== 200) throw new Error(`routine create: ${r.statusCode} ${r.body}`);
      return r.json() as { id: string; name: string };
    },
    async start(body: Record<string, unknown>) {
      const r = await call('POST', '/runs', body);
      if (r.statusCode !== 200) throw new Error(`runs start: ${r.statusCode} ${r.body}`);
      return (r.json() as { runs: TestRunDto[] }).runs;
    },
    async run(id: string): Promise<TestRunDto> {
      return (await call('GET', `/runs/${id}`)).json();
    },
    /** Polls the run until it is finished (analyzed, failed, cancelled) or `ms` pass. */
    async finished(id: string, ms = 60_000): Promise<TestRunDto> {
      return this.until(id, (r) => ['analyzed', 'failed', 'cancelled'].includes(r.state), ms);
    },
    /** Polls the run until `ok` holds; throws with the run's last state when `ms` pass first. */
    until(id: string, ok: (r: TestRunDto) => boolean, ms = 60_000): Promise<TestRunDto> {
      return poll(() => this.run(id), ok, { ms, every: 100, what: `run ${id} to satisfy ${ok}` });
    },
    async report(id: string) {
      const r = await call('GET', `/runs/${id}/report`);
      if (r.statusCode !== 200) throw new Error(`report: ${r.statusCode} ${r.body}`);
      return r.json() as TestReportDto;
    },
  };
}

export interface TestRunDto {
  id: string;
  batch_id: string;
  things_id: string;
  state: string;
  verdict: string | null;
  reason: string | null;
  reason_code: string | null;
  progress: number;
  step: number;
  windows: { from: number; to: number }[];
  script_version: number;
  params: Record<string, unknown>;
  dry_run: boolean;
}

export interface TestReportDto {
  verdict: string;
  metrics: { name: string; value: number; unit: string | null }[];
  tables: { name: string; columns: string[]; rows: unknown[][] }[];
  checks: { name: string; passed: boolean }[];
  charts: { signal: string; message: string; times: number[]; values: (number | null)[] }[];
  log: string;
  error: { kind: string; message: string; line: number | null } | null;
  frames: number;
  script_version: number;
  params: Record<string, unknown>;
}

/**
 * An analysis script over TEST_DBC's RAMP.Value: mean, maximum and a threshold check from `params`,
 * the frame count, a table of the first samples, the signal charted.
 */
export const MEAN_MAX_SCRIPT = `def s = signal('Value')
def values = s.values
double mean = values.sum() / values.size()
double max = values.max()
metric('mean', mean, s.unit)
metric('max', max, s.unit)
metric('frames', frames.size())
check('max below limit', max < params.limit)
table('first samples', ['time', 'value'], (0..<Math.min(3, values.size())).collect { [s.times[it], values[it]] })
chart('Value')
log("analysed \${values.size()} samples of \${s.message}.\${s.name}")
`;
