// Every table, one file per owner under schema/ (a feature, or `platform` and `jobs` for the platform). Drizzle
// and drizzle-kit need them in one module; features import only their own file.
export * from './schema/auth.ts';
export * from './schema/profile.ts';
export * from './schema/feedback.ts';
export * from './schema/social.ts';
export * from './schema/chat.ts';
export * from './schema/groups.ts';
export * from './schema/platform.ts';
export * from './schema/jobs.ts';
export * from './schema/files.ts';
export * from './schema/documents.ts';
export * from './schema/lms.ts';
export * from './schema/calendar.ts';
export * from './schema/realtime.ts';
export * from './schema/push.ts';
export * from './schema/moderation.ts';
export * from './schema/study-sessions.ts';
export * from './schema/schedule.ts';
export * from './schema/flashcards.ts';
