import { bigint, boolean, index, jsonb, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import type { UploadedFile } from '@studybuddy/shared/files';
import { at, cascadeRef, createdAt } from './columns.ts';
import { users } from './auth.ts';

/**
 * Every file a student keeps in storage (documents, chat files, profile images) with its size: the storage
 * quota sums it. One row per stored path per student (content-addressed paths make a re-upload free).
 */
export const storedFiles = pgTable(
  'stored_files',
  {
    userId: cascadeRef('user_id', () => users.id),
    path: text('path').notNull(),
    size: bigint('size', { mode: 'number' }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.path] })],
);

/**
 * Resumable (tus) uploads, shared by every app instance: who owns one, what it declared (the open-uploads and
 * storage quotas count these rows), which request holds it (a lease, so a PATCH on one instance and a HEAD on
 * another never touch the bytes at once), and its completion (claimed by one instance, then its result).
 */
export const resumableUploads = pgTable(
  'resumable_uploads',
  {
    /** `<userId>.<random>`, as in the upload's URL. */
    id: text('id').primaryKey(),
    userId: cascadeRef('user_id', () => users.id),
    size: bigint('size', { mode: 'number' }).notNull(),
    /** The tus Upload-Metadata (target, filename, filetype and the target's params). */
    metadata: jsonb('metadata').$type<Record<string, string | null>>().notNull(),
    createdAt: createdAt(),
    /** The request holding the upload, and until when (renewed while it works). */
    lockToken: text('lock_token'),
    lockedUntil: at('locked_until'),
    /** Another request waits for the lock: its holder lets go (a client resuming after a dropped connection). */
    releaseRequested: boolean('release_requested').notNull().default(false),
    /** 'open' while bytes arrive; 'storing' while one instance stores the complete file; 'stored' after. */
    state: text('state', { enum: ['open', 'storing', 'stored'] })
      .notNull()
      .default('open'),
    /** The lease of the instance storing the file (another takes over when it runs out). */
    storingUntil: at('storing_until'),
    /** The stored file, for a client whose final response was lost. */
    result: jsonb('result').$type<UploadedFile>(),
    finishedAt: at('finished_at'),
  },
  (t) => [index('resumable_uploads_user_idx').on(t.userId, t.state)],
);
