import { MSG } from '@studybuddy/shared/messages';
import { SCHEDULE_LIMITS, type ImportResult } from '@studybuddy/shared/schedule';
import { withTransaction } from '../../db/transaction.ts';
import type { AppContext } from '../../platform/context.ts';
import { AppError } from '../../platform/errors.ts';
import { createQuota, HOUR_MS } from '../../platform/quota.ts';
import { fetchIcs, IcsFetchError, type FetchDeps } from './ics-fetch.ts';
import { IcsError } from './ics-parse.ts';
import { createIcsThreads, type IcsThreads } from './ics-thread.ts';
import * as repo from './schedule.repository.ts';
import { mySchedule, refreshUtcWeek } from './schedule.service.ts';

/**
 * .ics imports (issue 27 part 1): from a file or an https address, parsed in a thread of its own within 5 s in
 * all, expanded into the window (a day back to four weeks ahead). A refused or failed import changes nothing.
 */

const DAY_MS = 86_400_000;
const IMPORTS_PER_HOUR = 30;

/** The reason an import was refused, as the student reads it. */
export function importFailure(err: unknown): AppError | null {
  const m = MSG.schedule;
  if (err instanceof IcsError) {
    if (err.reason === 'too_many') return new AppError(400, 'too_many_occurrences', m.tooManyOccurrences, 'ics');
    if (err.reason === 'timeout') return new AppError(400, 'timeout', m.timeout, 'ics');
    return new AppError(400, 'not_ical', m.notIcal, 'ics');
  }
  if (err instanceof IcsFetchError) {
    const byReason = {
      bad_url: m.badUrl,
      not_https: m.notHttps,
      private: m.privateAddress,
      too_large: m.tooLarge,
      timeout: m.timeout,
      redirects: m.tooManyRedirects,
      status: m.fetchFailed(err.detail || 'no answer'),
    } as const;
    return new AppError(err.reason === 'too_large' ? 413 : 400, err.reason, byReason[err.reason], 'url');
  }
  return null;
}

export interface ImportOptions {
  now?: Date;
  /** Tests: a resolver and transport of their own. */
  fetchDeps?: FetchDeps;
}

async function store(
  ctx: AppContext,
  threads: IcsThreads,
  userId: string,
  source: { kind: 'file' | 'url'; source: string },
  body: () => Promise<string>,
  deadline: number,
  now: Date,
): Promise<void> {
  const text = await body();
  if (Buffer.byteLength(text, 'utf8') > SCHEDULE_LIMITS.icsMaxBytes) {
    throw new AppError(413, 'too_large', MSG.schedule.tooLarge, 'ics');
  }
  const occurrences = await threads.parse(text, {
    fromMs: now.getTime() - DAY_MS,
    toMs: now.getTime() + SCHEDULE_LIMITS.importDaysAhead * DAY_MS,
    maxOccurrences: SCHEDULE_LIMITS.icsMaxOccurrences,
    deadline,
  });
  await withTransaction(ctx.db, async (db) => {
    await repo.replaceBusy(
      db,
      userId,
      occurrences.map((o) => ({
        key: o.key,
        seriesKey: o.seriesKey,
        title: o.title,
        startsAt: new Date(o.startMs),
        endsAt: new Date(o.endMs),
      })),
    );
    await repo.saveImport(db, { userId, ...source, lastImportAt: now, lastError: null });
  });
  await refreshUtcWeek(ctx, userId, now);
}

async function answer(ctx: AppContext, userId: string, now: Date): Promise<ImportResult> {
  const s = await mySchedule(ctx, userId, now);
  return { import: s.import, busy: s.busy };
}

/**
 * The .ics imports of an app (built in schedule.feature.ts): a file or an address, read again daily, each parsed in
 * a thread of its own; `onUrlImported` queues an address's next read.
 */
export function createScheduleImportService(ctx: AppContext, onUrlImported: (userId: string) => Promise<void>) {
  const threads = createIcsThreads();
  const quota = createQuota(ctx.db);
  const perHour = { what: MSG.schedule.importTitle, limit: IMPORTS_PER_HOUR, windowMs: HOUR_MS };
  const guarded = async <T>(userId: string, run: () => Promise<T>): Promise<T> => {
    const key = `schedule-import:${userId}`;
    await quota.consume(key, perHour);
    try {
      return await run();
    } catch (err) {
      throw importFailure(err) ?? err;
    }
  };

  return {
    async fromFile(userId: string, file: { fileName: string; content: string }, opts: ImportOptions = {}) {
      const now = opts.now ?? new Date();
      const deadline = Date.now() + SCHEDULE_LIMITS.icsTimeoutMs;
      await guarded(userId, () =>
        store(ctx, threads, userId, { kind: 'file', source: file.fileName }, async () => file.content, deadline, now),
      );
      return answer(ctx, userId, now);
    },

    async fromUrl(userId: string, url: string, opts: ImportOptions = {}) {
      const now = opts.now ?? new Date();
      const deadline = Date.now() + SCHEDULE_LIMITS.icsTimeoutMs;
      const fetchLimits = { maxBytes: SCHEDULE_LIMITS.icsMaxBytes, deadline };
      await guarded(userId, () =>
        store(
          ctx,
          threads,
          userId,
          { kind: 'url', source: url },
          () => fetchIcs(url, fetchLimits, opts.fetchDeps),
          deadline,
          now,
        ),
      );
      await onUrlImported(userId);
      return answer(ctx, userId, now);
    },

    /**
     * The daily re-read of an address: on failure the busy times of the last good read stay and the reason is
     * kept for the student to see. Returns false when there is no address any more.
     */
    async reread(userId: string, opts: ImportOptions = {}): Promise<boolean> {
      const found = await repo.findImport(ctx.db, userId);
      if (found?.kind !== 'url') return false;
      const now = opts.now ?? new Date();
      const deadline = Date.now() + SCHEDULE_LIMITS.icsTimeoutMs;
      const fetchLimits = { maxBytes: SCHEDULE_LIMITS.icsMaxBytes, deadline };
      try {
        await store(
          ctx,
          threads,
          userId,
          found,
          () => fetchIcs(found.source, fetchLimits, opts.fetchDeps),
          deadline,
          now,
        );
      } catch (err) {
        const known = importFailure(err);
        if (!known && !(err instanceof AppError)) throw err;
        await repo.setImportError(ctx.db, userId, (known ?? (err as AppError)).message);
      }
      return true;
    },

    async remove(userId: string, now = new Date()) {
      await repo.deleteImport(ctx.db, userId);
      await refreshUtcWeek(ctx, userId, now);
      return answer(ctx, userId, now);
    },
  };
}

export type ScheduleImports = ReturnType<typeof createScheduleImportService>;
