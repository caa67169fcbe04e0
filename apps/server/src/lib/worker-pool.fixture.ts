// A TypeScript task module of worker-pool.test.ts (loaded through tsx in the thread).

export function double(n: number): number {
  return n * 2;
}
