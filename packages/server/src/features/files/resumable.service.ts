import { MSG } from '@studybuddy/shared/messages';
import type { AppContext } from '../../platform/context.ts';
import { createQuota, DAY_MS, quotaExceeded } from '../../platform/quota.ts';
import type { ResumableStore } from './resumable-store.ts';
import { deleteUpload, insertUpload, uploadIdsOf } from './resumable-uploads.repository.ts';
import { STAGING_MS } from './staging-store.ts';
import { assertStorageRoom } from './storage-quota.service.ts';

/** A new tus upload as its creation request declares it. */
export interface NewResumableUpload {
  id: string;
  userId: string;
  size: number;
  metadata: Record<string, string | null>;
}

/**
 * The resumable uploads' rows and quotas: an upload is admitted within the student's quotas (on every instance),
 * and a deleted account's unfinished uploads go with their staged bytes.
 */
export function createResumableService(deps: { ctx: AppContext; store: ResumableStore }) {
  const { ctx, store } = deps;
  const quota = createQuota(ctx.db);
  const limits = ctx.config.limits;

  return {
    /**
     * Records the upload, or refuses it: unfinished uploads at once, storage (what the student keeps, plus what
     * their unfinished uploads declared, plus this one) and uploads started per day, counted last so a refused
     * creation costs nothing.
     */
    async admit(upload: NewResumableUpload): Promise<void> {
      await insertUpload(
        ctx.db,
        upload,
        async (tx, open) => {
          if (open.count >= limits.openUploads) {
            throw quotaExceeded({ what: MSG.quota.openUploads, when: MSG.quota.finishUploads }, limits.openUploads);
          }
          await assertStorageRoom(ctx, upload.userId, upload.size + open.bytes, tx);
        },
        STAGING_MS,
      );
      await quota
        .consume(`uploads:${upload.userId}`, {
          what: MSG.quota.uploadsPerDay,
          limit: limits.uploadsPerDay,
          windowMs: DAY_MS,
          when: MSG.quota.tryTomorrow,
        })
        .catch(async (err: unknown) => {
          await deleteUpload(ctx.db, upload.id);
          throw err;
        });
    },

    /** Discards every upload of the student (account deletion). */
    async discardAll(userId: string): Promise<void> {
      for (const id of await uploadIdsOf(ctx.db, userId)) {
        await store.backend.discard(id);
        await deleteUpload(ctx.db, id);
      }
    },
  };
}
