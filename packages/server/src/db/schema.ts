// Every table, one file per feature under schema/. Drizzle needs them in one module for typed queries.
export * from './schema/auth.ts';
export * from './schema/profile.ts';
export * from './schema/feedback.ts';
export * from './schema/social.ts';
export * from './schema/chat.ts';
export * from './schema/jobs.ts';
export * from './schema/files.ts';
export * from './schema/documents.ts';
export * from './schema/lms.ts';
export * from './schema/calendar.ts';
export * from './schema/realtime.ts';
