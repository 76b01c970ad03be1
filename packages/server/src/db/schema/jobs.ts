import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { at, createdAt } from './columns.ts';

/** The background job queue (platform/jobs): one row per job, claimed with FOR UPDATE SKIP LOCKED. */
export const jobs = pgTable(
  'jobs',
  {
    id: text('id').primaryKey(),
    kind: text('kind').notNull(),
    /** Whose work this is (a user id; '' for the system): the queue takes turns between owners. */
    owner: text('owner').notNull().default(''),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
    status: text('status', { enum: ['queued', 'running', 'done', 'failed'] })
      .notNull()
      .default('queued'),
    attempts: integer('attempts').notNull().default(0),
    maxAttempts: integer('max_attempts').notNull().default(5),
    runAt: timestamp('run_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    /** The worker holding the job and until when; an expired lease makes a running job claimable again. */
    lockedBy: text('locked_by'),
    lockedUntil: at('locked_until'),
    /** When a worker last took the job; an owner's latest claim decides whose turn is next. */
    claimedAt: at('claimed_at'),
    lastError: text('last_error'),
    /** At most one queued or running job per key (e.g. one processing job per document). */
    dedupeKey: text('dedupe_key'),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    finishedAt: at('finished_at'),
  },
  (t) => [
    index('jobs_claim_idx').on(t.status, t.runAt),
    index('jobs_owner_claimed_idx').on(t.owner, t.claimedAt),
    uniqueIndex('jobs_active_dedupe_key')
      .on(t.dedupeKey)
      .where(sql`${t.status} in ('queued', 'running')`),
  ],
);
