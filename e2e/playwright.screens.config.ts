import { defineConfig } from '@playwright/test';
import base from './playwright.config.ts';

/**
 * Screenshots of the main screens for a look by eye: `npm run screens -w e2e` (after
 * `npm run build`) writes them to e2e/artifacts/screens. Not part of `npm test`.
 */
export default defineConfig({ ...base, testDir: './screens' });
