import { fileURLToPath } from 'node:url';

/**
 * Drizzle's migrations: beside this file in src/db, or in dist/migrations once built (build.mjs copies them there
 * and puts every compiled module flat in dist/, so the same relative address works for both).
 */
export const migrationsFolder = fileURLToPath(new URL('./migrations', import.meta.url));
