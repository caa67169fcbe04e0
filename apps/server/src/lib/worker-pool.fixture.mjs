// Tasks of worker-pool.test.ts.

/** Answers its item, and the pool's `init` and the batch's `common` beside it. */
export function echo(item, init, common) {
  return { item, init, common };
}

/** Never yields while `item.spin`: what a backtracking regular expression does to a thread. */
export function spin(item) {
  if (item.spin) for (;;) {}
  return item.n;
}

/** Throws an error with a code of its own. */
export function fail(item) {
  throw Object.assign(new Error(`failed ${item}`), { code: 'fixture.failed', n: item });
}

/** Grows without end: past the pool's resourceLimits the thread dies. */
export function hog() {
  const keep = [];
  for (;;) keep.push(new Array(1e6).fill(keep.length));
}
