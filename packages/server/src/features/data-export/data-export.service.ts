import { randomUUID } from 'node:crypto';
import { PassThrough, Readable } from 'node:stream';
import { ZipFile } from 'yazl';
import { ACCOUNT_API } from '@studybuddy/shared/account';
import { filePathOfUrl } from '@studybuddy/shared/files';
import { MSG } from '@studybuddy/shared/messages';
import type { AppContext } from '../../platform/context.ts';
import { decryptSecret, DecryptError, encryptSecret } from '../../platform/crypto.ts';
import { notFound } from '../../platform/errors.ts';
import { createQuota, HOUR_MS, type QuotaRule } from '../../platform/quota.ts';
import { reactionsForExport, sentMessages } from '../chat/account-data.service.ts';
import { documentFileForExport, documentsForExport, documentTextForExport } from '../documents/account-data.service.ts';
import { feedbackForExport } from '../feedback/account-data.service.ts';
import { groupsForExport } from '../groups/account-data.service.ts';
import { courseworkForExport } from '../lms/account-data.service.ts';
import { reportsForExport } from '../moderation/account-data.service.ts';
import { scheduleForExport } from '../schedule/account-data.service.ts';
import { studySessionsForExport } from '../study-sessions/account-data.service.ts';
import { profiles } from '../profile/profiles.service.ts';
import { friendships } from '../social/friendships.service.ts';

/**
 * "Download my data" (issue 24): a ZIP of what the student put into StudyBuddy, asked of each feature that owns it
 * (this folder reads no table), streamed as it is written: entries are produced one after another and messages page
 * by page, so the archive is never held in memory. One download an hour per student (the platform's quota, shared by
 * every instance). Nothing of another student's is in it but what the student sees already: their friends' names
 * and the names of their own conversations.
 */

/** One download an hour. */
export const EXPORT_RULE: QuotaRule = { what: MSG.account.exportsPerHour, limit: 1, windowMs: HOUR_MS };
/** How long a download link works (it is used at once by the browser that asked for it). */
const TICKET_MS = 10 * 60 * 1000;
const TICKET_PURPOSE = 'data-export';

const json = (value: unknown) => Buffer.from(`${JSON.stringify(value, null, 2)}\n`);

/** A name safe as a ZIP entry's last part (no folders, no control characters, not too long). */
function entryName(name: string): string {
  const unsafe = (c: string) => c.charCodeAt(0) < 32 || c.charCodeAt(0) === 127 || '/\\:*?"<>|'.includes(c);
  const clean = [...name]
    .map((c) => (unsafe(c) ? '_' : c))
    .join('')
    .replace(/^\.+/, '_')
    .trim();
  return (clean || 'file').slice(0, 120);
}

/**
 * Takes the student's one download of the hour (429 naming the limit when it is used) and answers the address
 * of the download: a link that works once, for this student, for a few minutes.
 */
export async function requestExport(ctx: AppContext, userId: string): Promise<{ url: string }> {
  await createQuota(ctx.db).consume(`data-export:${userId}`, EXPORT_RULE);
  const ticket = encryptSecret(
    ctx.config.secretKey,
    JSON.stringify({ nonce: randomUUID(), expiresAt: Date.now() + TICKET_MS }),
    `${TICKET_PURPOSE}:${userId}`,
  );
  return { url: `${ACCOUNT_API.download}?ticket=${encodeURIComponent(ticket)}` };
}

/** Checks a download link (this student's, unexpired, not used before); 404 otherwise. */
export async function redeemTicket(ctx: AppContext, userId: string, ticket: string): Promise<void> {
  let data: { nonce: string; expiresAt: number };
  try {
    data = JSON.parse(decryptSecret(ctx.config.secretKey, ticket, `${TICKET_PURPOSE}:${userId}`)) as typeof data;
  } catch (err) {
    if (err instanceof DecryptError || err instanceof SyntaxError) throw notFound();
    throw err;
  }
  if (typeof data.nonce !== 'string' || !(data.expiresAt > Date.now())) throw notFound();
  // Used once: the link's own counter in the shared rate_limits table.
  try {
    await createQuota(ctx.db).consume(`data-export-ticket:${data.nonce}`, { what: '', limit: 1, windowMs: TICKET_MS });
  } catch {
    throw notFound();
  }
}

/** The ZIP of the student's data as a stream (written while it is read). */
export function exportArchive(ctx: AppContext, userId: string): Readable {
  const zip = new ZipFile();
  const out = new PassThrough();
  const fail = (err: unknown) => {
    ctx.log.error({ err, userId }, 'data export failed');
    out.destroy(err instanceof Error ? err : new Error(String(err)));
  };
  zip.on('error', fail);
  zip.outputStream.on('error', fail);
  zip.outputStream.pipe(out);
  fill(ctx, userId, zip).catch((err: unknown) => fail(err));
  return out;
}

async function fill(ctx: AppContext, userId: string, zip: ZipFile): Promise<void> {
  const generatedAt = new Date();
  const mtime = generatedAt;
  const [profile, friendIds, groupList, coursework, documents, feedback, reports, reactions, schedule, sessions] =
    await Promise.all([
      profiles.own(ctx.db, userId),
      friendships.friendIds(ctx.db, userId),
      groupsForExport(ctx, userId),
      courseworkForExport(ctx, userId),
      documentsForExport(ctx, userId),
      feedbackForExport(ctx.db, userId),
      reportsForExport(ctx.db, userId),
      reactionsForExport(ctx, userId),
      scheduleForExport(ctx, userId),
      studySessionsForExport(ctx, userId),
    ]);
  const cards = await profiles.cards(ctx.db, friendIds);
  const friends = friendIds
    .map((id) => cards.get(id)?.name.trim() || MSG.chat.anonymous)
    .sort((a, b) => a.localeCompare(b))
    .map((name) => ({ name }));

  zip.addBuffer(Buffer.from(readme(generatedAt)), 'README.txt', { mtime });
  zip.addBuffer(json(profile), 'profile.json', { mtime });
  zip.addBuffer(json(profile?.courses ?? []), 'courses.json', { mtime });
  zip.addBuffer(json(friends), 'friends.json', { mtime });
  zip.addBuffer(json(groupList.map(({ id: _id, ...g }) => g)), 'groups.json', { mtime });
  zip.addBuffer(json(coursework), 'coursework.json', { mtime });
  zip.addBuffer(json(feedback), 'feedback.json', { mtime });
  zip.addBuffer(json(reports), 'reports.json', { mtime });
  zip.addBuffer(json(reactions), 'reactions.json', { mtime });
  zip.addBuffer(json(schedule), 'schedule.json', { mtime });
  zip.addBuffer(json(sessions), 'study-sessions.json', { mtime });

  const docs = documents.map((d, i) => {
    const folder = `documents/${String(i + 1).padStart(3, '0')}-${entryName(d.name)}`;
    return { ...d, folder, file: d.hasFile ? `${folder}/${entryName(d.name)}` : null, text: `${folder}/text.txt` };
  });
  zip.addBuffer(json(docs.map(({ id: _id, hasFile: _h, folder: _f, ...d }) => d)), 'documents.json', { mtime });
  for (const d of docs) {
    if (d.file) {
      zip.addReadStreamLazy(d.file, { mtime }, (cb) => {
        documentFileForExport(ctx, userId, d.id).then(
          (body) => cb(null, body ?? Readable.from([])),
          (err: unknown) => cb(err, Readable.from([])),
        );
      });
    }
    zip.addReadStreamLazy(d.text, { mtime }, (cb) => {
      documentTextForExport(ctx, userId, d.id).then(
        (text) => cb(null, Readable.from([Buffer.from(text)])),
        (err: unknown) => cb(err, Readable.from([])),
      );
    });
  }

  // Last, as it is the longest: the messages, read page by page while the entry is written; a picture or voice
  // message the student sent is added as a file of its own after it (and the ZIP closes once the list is done).
  zip.addReadStream(Readable.from(messagesJson(ctx, userId, zip, mtime)), 'messages.json', { mtime });
}

async function* messagesJson(ctx: AppContext, userId: string, zip: ZipFile, mtime: Date): AsyncGenerator<Buffer> {
  try {
    let n = 0;
    yield Buffer.from('[');
    for await (const m of sentMessages(ctx, userId)) {
      let content = m.content;
      const stored = m.type === 'text' ? null : filePathOfUrl(m.content);
      if (stored) {
        const ext = stored.slice(stored.lastIndexOf('.') + 1);
        content = `messages/files/${entryName(m.id)}.${entryName(ext)}`;
        zip.addReadStreamLazy(content, { mtime }, (cb) => {
          ctx.storage.get(stored).then(
            (found) => cb(null, found?.body ?? Readable.from([])),
            (err: unknown) => cb(err, Readable.from([])),
          );
        });
      }
      const item = {
        id: m.id,
        conversation: { kind: m.conversation.kind, name: m.conversation.name },
        type: m.type,
        content,
        sentAt: m.sentAt,
      };
      yield Buffer.from(`${n++ ? ',' : ''}\n  ${JSON.stringify(item)}`);
    }
    yield Buffer.from(n ? '\n]\n' : ']\n');
  } finally {
    zip.end();
  }
}

function readme(at: Date): string {
  return [
    'Your StudyBuddy data',
    `Made ${at.toISOString()}.`,
    '',
    'profile.json      your profile',
    'courses.json      your courses',
    'friends.json      the names of your friends',
    'messages.json     every message you sent, with the name of its conversation',
    'messages/files/   the pictures and voice messages you sent',
    'reactions.json    the reactions you gave to messages (which emoji, to which message, when)',
    'groups.json       the groups you are in',
    'coursework.json   your Canvas address and the coursework cached from Canvas (never your token)',
    'documents.json    your course documents; documents/ has each file and its extracted text',
    'feedback.json     the feedback you sent while signed in',
    'reports.json      the reports you made (what, why and when)',
    'schedule.json     your week (free half hours), your calendar import and the busy times read from it',
    'study-sessions.json  the study sessions you planned, answered or joined, with your answer and goal',
    '',
  ].join('\n');
}

/** "Download my data": the hourly request, the one-time link's ticket, and the ZIP streamed as it is written. */
export function createDataExportService(ctx: AppContext) {
  return {
    request: (userId: string) => requestExport(ctx, userId),
    redeem: (userId: string, ticket: string) => redeemTicket(ctx, userId, ticket),
    archive: (userId: string): Readable => exportArchive(ctx, userId),
  };
}

export type DataExportService = ReturnType<typeof createDataExportService>;
