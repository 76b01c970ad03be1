import path from 'node:path';
import { MSG } from '@studybuddy/shared/messages';
import type { AppContext } from '../../platform/context.ts';
import { createQuota, DAY_MS, quotaExceeded } from '../../platform/quota.ts';
import type { SessionUser } from '../../platform/session.ts';
import { stagingDir } from './files.service.ts';
import { createCompletion } from './resumable-completion.ts';
import { ResumableStore } from './resumable-store.ts';
import { deleteUpload, insertUpload, uploadIdsOf } from './resumable-uploads.repository.ts';
import { STAGING_MS, StagingStore, type StagingBackend } from './staging-store.ts';
import { assertStorageRoom } from './storage-quota.service.ts';
import { SharedLocker } from './upload-locker.ts';

/** A new tus upload as its creation request declares it. */
export interface NewResumableUpload {
  id: string;
  userId: string;
  size: number;
  metadata: Record<string, string | null>;
}

/** Where a complete upload staged in S3 is copied while it is checked and stored. */
export const scratchDirOf = (config: AppContext['config']) => path.join(stagingDir(config), 'scratch');

/**
 * Bytes wait on this instance's disk (STORAGE=fs), or in the bucket where every instance reaches them (s3; its
 * store and the AWS SDK are loaded only then, as platform/storage/create-storage.ts does).
 */
async function stagingBackend(ctx: AppContext): Promise<StagingBackend> {
  if (ctx.config.storage === 's3' && ctx.config.s3) {
    const { S3StagingStore } = await import('./s3-staging-store.ts');
    return new S3StagingStore(ctx.config.s3);
  }
  return new StagingStore(stagingDir(ctx.config));
}

/**
 * The resumable uploads' rows, bytes and quotas: an upload is admitted within the student's quotas (on every
 * instance), stored once when complete whichever instance finishes it, and a deleted account's unfinished uploads
 * go with their staged bytes. `datastore` and `locker` are what the tus server works on.
 */
export async function createResumableService(ctx: AppContext) {
  const store = new ResumableStore(await stagingBackend(ctx), ctx.db);
  const scratchDir = scratchDirOf(ctx.config);
  const completion = createCompletion(ctx, store, scratchDir);
  const quota = createQuota(ctx.db);
  const limits = ctx.config.limits;

  return {
    datastore: store,
    locker: new SharedLocker(ctx.db, ctx.log),

    /** Stores a complete upload (once, whichever instance asks), or answers the file stored already. */
    complete: (id: string, user: SessionUser) => completion.complete(id, user),

    /** Drops abandoned uploads' bytes and scratch copies. */
    sweep: () => store.sweep(scratchDir, ctx.log),

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

export type ResumableService = Awaited<ReturnType<typeof createResumableService>>;
