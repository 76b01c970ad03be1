import { MSG } from '@studybuddy/shared/messages';
import type { AppContext } from '../../platform/context.ts';
import { createQuota, DAY_MS } from '../../platform/quota.ts';

export type DocumentQuota = ReturnType<typeof createDocumentQuota>;

/**
 * QUOTA_DOCUMENTS_PER_DAY: an upload, a finished resumable upload and a Canvas file imported on first open each
 * count one document.
 */
export function createDocumentQuota(ctx: Pick<AppContext, 'db' | 'config'>) {
  const quota = createQuota(ctx.db);
  return {
    /** Counts one course document added today and gives it back when `add` fails. */
    async count<T>(userId: string, add: () => Promise<T>): Promise<T> {
      const key = `documents:${userId}`;
      await quota.consume(key, {
        what: MSG.quota.documentsPerDay,
        limit: ctx.config.limits.documentsPerDay,
        windowMs: DAY_MS,
        when: MSG.quota.tryTomorrow,
      });
      try {
        return await add();
      } catch (err) {
        await quota.refund(key).catch(() => undefined);
        throw err;
      }
    },
  };
}
