import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileUrl, type UploadedFile } from '@studybuddy/shared/files';
import { MSG } from '@studybuddy/shared/messages';
import type { Config } from '../../config.ts';
import type { AppContext } from '../../platform/context.ts';
import { AppError, badRequest, forbidden, notFound } from '../../platform/errors.ts';
import type { UploadTarget } from '../../platform/registry.ts';
import { canRead, type FileReader } from '../../platform/storage/access.ts';
import { assertSafePath, folderOf } from '../../platform/storage/storage.ts';
import { userFolder } from '../../platform/storage/upload-targets.ts';
import type { SessionUser } from '../../platform/session.ts';
import { reencodeImage } from './image-processing.ts';
import { headOf, sniffType } from './sniff.ts';
import { assertStorageRoom, storeWithinQuota } from './storage-quota.service.ts';
import { forgetPath, storedPathsOf } from './stored-files.repository.ts';

export type { UploadTarget } from '../../platform/registry.ts';
export { registerUploadTarget, userFolder } from '../../platform/storage/upload-targets.ts';
export { headOf, SNIFF_BYTES, sniffType, type SniffedType } from './sniff.ts';

export const IMMUTABLE_CACHE = 'private, max-age=31536000, immutable';

/** The target an upload names (registered by a feature with `registerUploadTarget`), or a 400. */
export function uploadTarget(ctx: AppContext, name: string | undefined): UploadTarget {
  const target = name ? ctx.registry.uploadTargets.get(name) : undefined;
  if (!target) throw badRequest(MSG.files.unknownTarget, 'target');
  return target;
}

/** The data of an upload: in memory (multipart) or a staged file on disk (tus). */
export type UploadSource = { data: Buffer } | { file: string; size: number };

export interface UploadRequest {
  user: SessionUser;
  target: string;
  params: Record<string, string>;
  /** The name and type the client declared (only informative: the bytes decide). */
  filename: string;
  filetype: string;
}

const safeExt = (name: string) => {
  const ext = path.extname(name).slice(1).toLowerCase();
  return /^[a-z0-9]{1,8}$/.test(ext) ? ext : 'bin';
};
/** The file's own name, without folders or control characters, at most 200 characters. */
const cleanName = (name: string) =>
  [...path.basename(name.replace(/\\/g, '/'))]
    .filter((ch) => ch.charCodeAt(0) >= 0x20 && ch.charCodeAt(0) !== 0x7f)
    .join('')
    .slice(0, 200) || 'file';

async function sha256OfFile(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}
const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

/**
 * The key of a stored file (`<folder>/<key>.<ext>`): a hash of the content's SHA-256, the uploader and the name.
 * The same student sending the same file under the same name reaches the same object (stored and counted once);
 * identical bytes from another student, or under another name, get an object of their own, so an upload never
 * rewrites another file's name, type or owner.
 */
export const storedKey = (contentSha256: string, userId: string, name: string): string =>
  createHash('sha256').update(`${contentSha256}\n${userId}\n${name}`).digest('hex');

/**
 * Validates the target, checks and re-encodes images, checks other files' type by their first bytes (a target's
 * `accepts`), stores the file under its key with that type and describes it. The file counts against the
 * uploader's storage quota; one that does not fit is refused before it is written.
 */
export async function storeUpload(ctx: AppContext, req: UploadRequest, source: UploadSource): Promise<UploadedFile> {
  const target = uploadTarget(ctx, req.target);
  const size = 'data' in source ? source.data.length : source.size;
  if (size === 0) throw badRequest(MSG.files.empty, 'file');
  if (size > target.maxBytes) throw new AppError(413, 'payload_too_large', MSG.files.tooLarge, 'file');
  const folder = folderOf(await target.folder(req.user, req.params));
  // Only the first bytes are read: the type of a file of any size is judged in bounded time.
  const sniffed = await sniffType(await headOf(source));
  if (target.accepts && !target.accepts.types.includes(sniffed.mime)) {
    throw badRequest(target.accepts.refusal, 'file');
  }
  await assertStorageRoom(ctx, req.user.id, size);
  const name = cleanName(req.filename);
  const keyOf = (contentSha256: string) => storedKey(contentSha256, req.user.id, name);
  const options = { cacheControl: IMMUTABLE_CACHE, customMetadata: { originalName: name } };
  const within = <T>(fullPath: string, bytes: number, write: () => Promise<T>) =>
    storeWithinQuota(ctx, req.user.id, fullPath, bytes, write);

  if (target.kind === 'image') {
    const input = 'data' in source ? source.data : await readFile(source.file);
    const image = await reencodeImage(input, target.maxImagePx ?? 2048, ctx.config.limits.imageMaxPixels);
    const fullPath = `${folder}/${keyOf(sha256(image.data))}.${image.ext}`;
    const meta = await within(fullPath, image.data.length, () =>
      ctx.storage.put(fullPath, image.data, { ...options, contentType: image.contentType }),
    );
    return describe(meta, name);
  }

  const contentType = sniffed.mime;
  const ext = sniffed.ext ?? safeExt(name);
  if ('data' in source) {
    const fullPath = `${folder}/${keyOf(sha256(source.data))}.${ext}`;
    const meta = await within(fullPath, size, () =>
      ctx.storage.put(fullPath, source.data, { ...options, contentType }),
    );
    return describe(meta, name);
  }
  const fullPath = `${folder}/${keyOf(await sha256OfFile(source.file))}.${ext}`;
  const meta = await within(fullPath, size, () =>
    ctx.storage.putFile(fullPath, source.file, { ...options, contentType }),
  );
  return describe(meta, name);
}

function describe(
  meta: { fullPath: string; size: number; contentType: string; md5Hash: string },
  name: string,
): UploadedFile {
  return {
    url: fileUrl(meta.fullPath),
    path: meta.fullPath,
    name,
    size: meta.size,
    contentType: meta.contentType,
    md5Hash: meta.md5Hash,
  };
}

/** Where resumable uploads are staged on disk until they are complete (STORAGE=fs; ids are `<userId>.<random>`). */
export const stagingDir = (config: Pick<Config, 'dataDir'>) => path.join(config.dataDir, 'uploads');

/**
 * Removes one stored file (a chat picture or voice message deleted with its message): from storage, and from the
 * storage quota of whoever it counted for. A file already gone is no error.
 */
export async function deleteStoredFile(ctx: AppContext, path: string): Promise<void> {
  await ctx.storage.delete(path);
  await forgetPath(ctx.db, path);
}

/**
 * Removes every stored file of a user (account deletion): their own folder, and every file they keep in any other
 * folder (pictures and voice messages sent to chats and groups, course documents). Their resumable uploads go with
 * the files routes' cleanup; the stored_files rows go with the account.
 */
export async function deleteUserFiles(ctx: AppContext, userId: string): Promise<void> {
  for (const path of await storedPathsOf(ctx.db, userId)) await ctx.storage.delete(path);
  await ctx.storage.deletePrefix(userFolder(userId));
}

/** What the files routes do: single-request uploads and reading a stored file as the folder's access rule allows. */
export function createFilesService(ctx: AppContext) {
  return {
    upload: (req: UploadRequest, source: UploadSource): Promise<UploadedFile> => storeUpload(ctx, req, source),

    /**
     * A stored file for `reader`: 404 for a path that is no stored object's, 403 when the folder's access rule
     * refuses (asked before the object is looked up, so a refused reader cannot learn whether it exists).
     */
    async read(reader: FileReader, fullPath: string) {
      try {
        assertSafePath(fullPath);
      } catch {
        throw notFound();
      }
      if (!(await canRead(ctx, reader, fullPath))) throw forbidden();
      const found = await ctx.storage.get(fullPath);
      if (!found) throw notFound();
      return found;
    },

    /** A deleted account's stored files. */
    deleteUserFiles: (userId: string) => deleteUserFiles(ctx, userId),
  };
}

export type FilesService = ReturnType<typeof createFilesService>;
