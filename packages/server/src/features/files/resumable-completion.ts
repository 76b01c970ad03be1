import { setTimeout as sleep } from 'node:timers/promises';
import type { UploadedFile } from '@studybuddy/shared/files';
import { MSG } from '@studybuddy/shared/messages';
import type { AppContext } from '../../platform/context.ts';
import { AppError, notFound } from '../../platform/errors.ts';
import type { SessionUser } from '../../platform/session.ts';
import { storeUpload } from './files.service.ts';
import type { ResumableStore } from './resumable-store.ts';
import {
  claimStoring,
  deleteUpload,
  findUpload,
  markStored,
  releaseStoring,
  renewStoring,
  type ResumableUpload,
} from './resumable-uploads.repository.ts';

/** Upload-Metadata keys that are not the target's params. */
const RESERVED = new Set(['target', 'filename', 'filetype', 'name', 'type']);

export function paramsOf(metadata: Record<string, string | null> | undefined): Record<string, string> {
  const params: Record<string, string> = {};
  for (const [k, v] of Object.entries(metadata ?? {})) if (!RESERVED.has(k) && typeof v === 'string') params[k] = v;
  return params;
}

export interface CompletionOptions {
  /** How long the storing instance's claim lasts without renewal (another one takes over after it). */
  leaseMs?: number;
  /** How long a request waits for another instance storing the same upload before answering 503. */
  waitMs?: number;
}

/**
 * Completion of a resumable upload: the complete bytes are checked and written to the storage, and the upload's
 * row records the stored file. It runs once whichever instance the last PATCH (or a retry, or the client asking
 * for the result) reaches: the first to claim the row stores; the others wait for its result.
 */
export function createCompletion(
  ctx: AppContext,
  store: ResumableStore,
  scratchDir: string,
  options: CompletionOptions = {},
) {
  const leaseMs = options.leaseMs ?? 60_000;
  const waitMs = options.waitMs ?? 20_000;

  /** Stores the claimed upload; a refused file (not an image, over quota) drops the upload. */
  async function storeClaimed(row: ResumableUpload, user: SessionUser): Promise<UploadedFile> {
    const renewal = setInterval(
      () => void renewStoring(ctx.db, row.id, leaseMs).catch((err) => ctx.log.warn({ err }, 'upload lease')),
      leaseMs / 3,
    );
    renewal.unref();
    let copy: { file: string; release(): Promise<void> } | undefined;
    const started = Date.now();
    try {
      copy = await store.backend.localCopy(row.id, scratchDir);
      const meta = row.metadata;
      const file = await storeUpload(
        ctx,
        {
          user,
          target: meta.target ?? '',
          params: paramsOf(meta),
          filename: meta.filename ?? meta.name ?? 'file',
          filetype: meta.filetype ?? meta.type ?? '',
        },
        { file: copy.file, size: row.size },
      );
      await markStored(ctx.db, row.id, file);
      ctx.log.info({ upload: row.id, path: file.path, ms: Date.now() - started }, 'resumable upload stored');
      await store.backend
        .discard(row.id)
        .catch((err: unknown) => ctx.log.warn({ err, upload: row.id }, 'dropping stored upload bytes failed'));
      return file;
    } catch (err) {
      if (err instanceof AppError) {
        await store.backend.discard(row.id).catch(() => undefined);
        await deleteUpload(ctx.db, row.id);
      } else {
        // Kept for a retry (the client asks again): the bytes are still complete.
        await releaseStoring(ctx.db, row.id);
      }
      throw err;
    } finally {
      clearInterval(renewal);
      await copy?.release().catch(() => undefined);
    }
  }

  /**
   * The stored file of the user's complete upload, storing it first if no instance has; 404 when there is no such
   * upload or its bytes are not all there, 503 while another instance is still storing it.
   */
  async function complete(id: string, user: SessionUser): Promise<UploadedFile> {
    const deadline = Date.now() + waitMs;
    for (;;) {
      const row = await findUpload(ctx.db, id);
      if (!row || row.userId !== user.id) throw notFound();
      if (row.state === 'stored' && row.result) return row.result;
      if (row.state === 'open' && (await store.backend.getUpload(id).catch(() => null))?.offset !== row.size) {
        throw notFound();
      }
      if (await claimStoring(ctx.db, id, leaseMs)) return storeClaimed(row, user);
      if (Date.now() > deadline) throw new AppError(503, 'upload_storing', MSG.quota.tryLater);
      await sleep(200);
    }
  }

  return { complete };
}
