import { z } from 'zod';

// The console runs under a Content-Security-Policy without 'unsafe-eval' (docs/security.md). Zod
// would build its object parsers with `new Function`, and even its probe for that is reported by
// the browser as a policy violation: it parses without compiling here. Imported first by main.tsx,
// before any schema is made.
z.config({ jitless: true });
