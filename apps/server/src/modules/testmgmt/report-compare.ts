import type { ReportComparison, TestReport } from '@loggerhead/contract';

/** Names in order of first appearance: A's first, then those only B has. */
const namesOf = (a: readonly { name: string }[], b: readonly { name: string }[]) => [...new Set([...a, ...b].map((x) => x.name))];

const same = (x: unknown, y: unknown) => JSON.stringify(x) === JSON.stringify(y);

/** Two reports compared by name: metrics (B − A) and checks in the scripts' order, parameters, verdicts. */
export function compareReports(a: TestReport, b: TestReport): ReportComparison {
  const metrics = namesOf(a.metrics, b.metrics).map((name) => {
    const ma = a.metrics.find((m) => m.name === name);
    const mb = b.metrics.find((m) => m.name === name);
    const va = ma?.value ?? null;
    const vb = mb?.value ?? null;
    return { name, unit: ma?.unit ?? mb?.unit ?? null, a: va, b: vb, diff: va !== null && vb !== null ? vb - va : null };
  });
  const checks = namesOf(a.checks, b.checks).map((name) => {
    const ca = a.checks.find((c) => c.name === name)?.passed ?? null;
    const cb = b.checks.find((c) => c.name === name)?.passed ?? null;
    return { name, a: ca, b: cb, same: ca === cb };
  });
  // Parameters by name, sorted: their stored order is not the order they were written in.
  const keys = [...new Set([...Object.keys(a.params), ...Object.keys(b.params)])].sort();
  const params = keys.map((name) => {
    const pa = a.params[name] ?? null;
    const pb = b.params[name] ?? null;
    return { name, a: pa, b: pb, same: same(pa, pb) };
  });
  return { a, b, verdicts: { a: a.verdict, b: b.verdict, same: a.verdict === b.verdict }, metrics, checks, params };
}
