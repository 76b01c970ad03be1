import type { AppContext } from '../context.ts';
import type { UploadTarget } from '../registry.ts';

/**
 * Names where a feature's uploads go and what they may be; the files feature's upload endpoints (multipart up to
 * 262144 bytes, tus above) then accept files for it. The client sends the target's params as query parameters
 * (multipart) or as Upload-Metadata (tus):
 *
 * ```ts
 * registerUploadTarget(ctx, 'chat-image', {
 *   kind: 'image', maxBytes: LIMITS.chatImageBytes, maxImagePx: 2048,
 *   folder: async (user, params) => {
 *     if (!(await mayAccess(ctx, user.id, refOf(params)))) throw forbidden();
 *     return `chats/${params.id}`;
 *   },
 * });
 * ```
 * Pair each folder with a file access rule (`registerAccessRule`).
 */
export function registerUploadTarget(ctx: AppContext, name: string, target: UploadTarget): void {
  const targets = ctx.registry.uploadTargets;
  if (targets.has(name)) throw new Error(`upload target "${name}" is already registered`);
  targets.set(name, target);
}

/** The folder of a user's own files (profile pictures and anything else private to them). */
export const userFolder = (userId: string) => `users/${userId}`;
