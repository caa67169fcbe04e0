import { defineConfig } from '@playwright/test';
import { ENV } from './support/env.ts';

/**
 * Browser tests against the real server (started by global setup) and Debian's
 * Chromium. Run from the repository root with `npm run test:e2e` (builds the console first), which
 * runs this configuration twice side by side on halves of the spec files (`run.mjs`, lanes): each
 * run has its own server and one worker.
 */
export default defineConfig({
  testDir: './tests',
  outputDir: './test-results',
  globalSetup: './support/global-setup.ts',
  workers: 1,
  fullyParallel: false,
  forbidOnly: Boolean(process.env.CI),
  // On CI one retry, so that a timing hiccup on a loaded machine does not sink the run; a test that
  // needed it is still reported as flaky in the output. Locally none: flakiness shows at once.
  retries: process.env.CI ? 1 : 0,
  timeout: 60_000,
  // Generous: the machine running the suite is often busy (two cores shared with builds and other tests).
  expect: { timeout: 15_000 },
  // A lane of `run.mjs` (two Playwright runs side by side) writes its report beside the other's.
  reporter: process.env.CI
    ? [['list'], ['html', { open: 'never', outputFolder: `./artifacts/report${process.env.E2E_LANE ? `-${process.env.E2E_LANE}` : ''}` }]]
    : [['list']],
  use: {
    // Workers read the address global setup published (they start after it ran).
    baseURL: process.env[ENV.url],
    headless: true,
    screenshot: 'only-on-failure',
    viewport: { width: 1440, height: 900 },
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    },
  },
  projects: [{ name: 'chromium', use: { browserName: 'chromium' } }],
});
