import type { AppContext } from '../context.ts';
import { folderOf } from './storage.ts';

/**
 * Who may read a stored file.
 *
 * Every stored object is served at `/api/files/<fullPath>` to signed-in users only, and only when an access
 * rule says yes. A feature claims the folder its files live in and decides per reader and path:
 *
 * ```ts
 * // when the chat feature starts (one rule per folder, registered once per app):
 * registerAccessRule(ctx, 'chats', async (reader, fullPath) => {
 *   const chatId = fullPath.split('/')[1]!;
 *   return isChatMember(ctx.db, chatId, reader.id);
 * });
 * ```
 *
 * - The rule of the longest registered folder that contains the path decides (`chats/abc` beats `chats`).
 * - A path no rule covers is refused (deny by default); so is any path when the rule throws.
 * - Refused reads answer 403 `forbidden`, missing objects 404 `not_found`, signed-out readers 401 —
 *   always the standard error JSON. The rule runs before the object is looked up, so a refused reader
 *   cannot learn whether a file exists.
 * - Rules are per app instance (on its context's registry), so tests can build several apps side by side.
 */
export interface FileReader {
  id: string;
}

export type AccessRule = (reader: FileReader, fullPath: string) => boolean | Promise<boolean>;

/** Lets `rule` decide who reads the files under the folder `prefix` (e.g. 'users', 'chats'). */
export function registerAccessRule(ctx: AppContext, prefix: string, rule: AccessRule): void {
  const folder = folderOf(prefix);
  const rules = ctx.registry.fileAccessRules;
  if (rules.has(folder)) throw new Error(`an access rule for "${folder}" is already registered`);
  rules.set(folder, rule);
}

/** True when the rule of the longest registered folder containing `fullPath` allows `reader`. */
export async function canRead(ctx: AppContext, reader: FileReader, fullPath: string): Promise<boolean> {
  let best: { folder: string; rule: AccessRule } | undefined;
  for (const [folder, rule] of ctx.registry.fileAccessRules) {
    if (fullPath.startsWith(`${folder}/`) && (!best || folder.length > best.folder.length)) best = { folder, rule };
  }
  if (!best) return false;
  try {
    return (await best.rule(reader, fullPath)) === true;
  } catch {
    return false;
  }
}
