import { defineConfig } from 'vitest/config';

/**
 * One run for every workspace's unit and API tests (`npm run test:unit`).
 * The browser end-to-end suite runs separately (`npm run test:e2e`).
 */
export default defineConfig({
  test: {
    passWithNoTests: true,
    // On CI one retry, as in the browser suite: a timing hiccup on a loaded two-core machine must not
    // sink the run. A test that needed it is still reported (vitest marks it "retry x1"); locally none.
    retry: process.env.CI ? 1 : 0,
    // Two workers match the two cores of our machines; PGlite instances are heavy.
    maxWorkers: 2,
    projects: [
      { test: { name: 'contract', root: 'packages/contract', include: ['src/**/*.test.ts'] } },
      { test: { name: 'can', root: 'packages/can', include: ['src/**/*.test.ts', 'test/**/*.test.ts'], testTimeout: 60_000 } },
      { test: { name: 'simulator', root: 'packages/simulator', include: ['src/**/*.test.ts'], testTimeout: 60_000 } },
      {
        test: {
          name: 'server',
          root: 'apps/server',
          include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
          // A worker keeps the server's modules loaded from one test file to the next: each file still
          // builds its own app on its own database, and re-importing the server for every file cost a
          // third of the suite's CPU (docs/decisions/0111-server-tests-share-modules.md).
          isolate: false,
          // Generous: each file builds the whole server on a fresh database, and CI shares two cores.
          testTimeout: 180_000,
          hookTimeout: 180_000,
        },
      },
      { test: { name: 'web', root: 'apps/web', include: ['src/**/*.test.ts', 'src/**/*.test.tsx'] } },
    ],
  },
});
