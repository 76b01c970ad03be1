// Every table, one file per feature under schema/. Drizzle needs them in one module for typed queries.
export * from './schema/auth.ts';
export * from './schema/profile.ts';
export * from './schema/feedback.ts';
