// Every `from 'zod'` of the web build resolves here (vite.config.ts): zod with the browser's setting made before
// any schema is built, since each module that builds one imports zod, and so this, first. zod's fast path compiles
// parsers with `new Function`, and even its probe for that is a violation of the web app's Content-Security-Policy
// (no 'unsafe-eval'). Setting it here rather than in main.tsx keeps zod out of the first load: it comes with the
// first chunk that needs a schema (the log-in form's on its first submit).
import { config } from 'zod/v4/core';

config({ jitless: true });

export * from 'zod/v4';
