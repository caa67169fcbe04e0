import react from '@vitejs/plugin-react';
import { defineConfig, type PluginOption } from 'vite';
import { catalogueChunk, catalogueLanguage } from './catalogue-language.ts';
import { leanContract } from './lean-contract.ts';

// The dev server proxies the API to a locally started server (`npx loggerhead serve`, port 8080);
// in production the server itself serves `dist` with a history fallback.
const backend = 'http://localhost:8080';

/** Large libraries that change rarely get their own long-cached chunks; each language's feature messages one chunk. */
function vendorChunk(id: string): string | undefined {
  if (!id.includes('node_modules')) return catalogueChunk(id);
  if (/node_modules\/(react|react-dom|scheduler|react-router)\//.test(id)) return 'react';
  if (/node_modules\/(i18next|react-i18next|@tanstack)\//.test(id)) return 'vendor';
  return undefined;
}

export default defineConfig({
  // The workspace root hoists a newer vite (for vitest) whose plugin types the react plugin picks up;
  // at run time the plugin works with this vite, so only the type needs bridging.
  plugins: [react() as unknown as PluginOption, leanContract(), catalogueLanguage()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    chunkSizeWarningLimit: 1200,
    rollupOptions: { output: { manualChunks: vendorChunk } },
  },
  server: {
    // ws: the live trace, curves, remote state and the message bell are WebSockets under /v1.
    proxy: { '/api': { target: backend, ws: true }, '/v1': { target: backend, ws: true } },
  },
});
