// zod's core only: the same global setting without loading the schema library on first paint.
import { config } from 'zod/v4/core';

/**
 * For the browser, imported before any schema is built: zod's fast path compiles parsers with `new Function`,
 * and even its probe for that is a violation of the web app's Content-Security-Policy (no 'unsafe-eval').
 */
config({ jitless: true });
