// The console runs under a Content-Security-Policy without 'unsafe-eval' (docs/security.md). Zod
// would build its object parsers with `new Function`, and even its probe for that is reported by
// the browser as a policy violation: it parses without compiling here. Imported first by main.tsx.
//
// Zod keeps its settings in one global object, which it takes as it finds it when it first loads
// (`globalThis.__zod_globalConfig`, zod 4 core). Setting it here, instead of calling `z.config`,
// keeps zod itself out of the first load: it loads with the pages that parse with a schema. The
// browser tests' CSP walk of every route sees the probe if this stops working.
const holder = globalThis as { __zod_globalConfig?: Record<string, unknown> };
holder.__zod_globalConfig = { ...holder.__zod_globalConfig, jitless: true };

export {};
