import {
  CHAT_LIMITS,
  conversationFolder,
  type AttachmentKind,
  type AttachmentResult,
  type ConversationRef,
} from '@studybuddy/shared/chat';
import { filePathOfUrl } from '@studybuddy/shared/files';
import { MSG } from '@studybuddy/shared/messages';
import type { AppContext } from '../../platform/context.ts';
import { badRequest, forbidden } from '../../platform/errors.ts';
import { registerAccessRule } from '../../platform/storage/access.ts';
import type { SessionUser } from '../../platform/session.ts';
import { headOf, registerUploadTarget, sniffType, storeUpload } from '../files/files.service.ts';
import { mayAccess, mayRead } from './conversation-access.ts';

/**
 * Images and voice messages of chats and groups (requirements §5, §7): stored under `chats/<chatId>/` or
 * `groups/<groupId>/` and served at /api/files/… to the conversation's members only.
 */

const TARGET = { image: 'chat-image', voice: 'chat-voice' } as const;
/** What the upload pipeline decodes; anything else is not 'a valid image file'. */
const IMAGE_TYPES = new Set(['image/jpeg', 'image/png', 'image/webp', 'image/gif', 'image/avif', 'image/tiff']);
/**
 * Voice recordings, judged by their bytes: Opus in WebM or Ogg (what the web app's MediaRecorder writes; a WebM
 * must declare audio tracks only), and the WAV recordings of earlier versions, which stay accepted and playable.
 */
const VOICE_TYPES: readonly string[] = ['audio/webm', 'audio/ogg; codecs=opus', 'audio/wav'];
const STORED_EXT = { image: ['jpg', 'png'], voice: ['webm', 'opus', 'wav'] } as const;

function refOfParams(params: Record<string, string>): ConversationRef {
  const kind = params.kind;
  const id = params.id;
  if ((kind !== 'chat' && kind !== 'group') || !id || id.length > 300) throw forbidden();
  return { kind, id };
}

const isMember = (ctx: AppContext, userId: string, ref: ConversationRef) => mayAccess(ctx, userId, ref);

/** Registers the upload targets and the read rules of the two folders (once per app). */
export function registerChatFiles(ctx: AppContext): void {
  const folder = async (user: SessionUser, params: Record<string, string>) => {
    const ref = refOfParams(params);
    if (!(await isMember(ctx, user.id, ref)))
      throw forbidden(ref.kind === 'chat' ? MSG.chat.notFriends : MSG.groups.notMember);
    return conversationFolder(ref);
  };
  registerUploadTarget(ctx, TARGET.image, {
    kind: 'image',
    maxBytes: CHAT_LIMITS.imageMaxBytes - 1,
    maxImagePx: 2048,
    folder,
  });
  // On every upload path (this feature's own, POST /api/uploads and tus): a voice message is an audio recording.
  registerUploadTarget(ctx, TARGET.voice, {
    kind: 'file',
    maxBytes: CHAT_LIMITS.voiceMaxBytes,
    accepts: { types: VOICE_TYPES, refusal: MSG.chat.invalidVoice },
    folder,
  });
  // Files of a chat with a student the reader blocked stay readable, like its history (issue 24).
  registerAccessRule(ctx, 'chats', (reader, fullPath) =>
    mayRead(ctx, reader.id, { kind: 'chat', id: fullPath.split('/')[1]! }),
  );
  registerAccessRule(ctx, 'groups', (reader, fullPath) =>
    isMember(ctx, reader.id, { kind: 'group', id: fullPath.split('/')[1]! }),
  );
}

/** Checks an image (image types only, under 5 MB) or a voice recording (VOICE_TYPES), then stores it for the conversation. */
export async function storeAttachment(
  ctx: AppContext,
  user: SessionUser,
  ref: ConversationRef,
  kind: AttachmentKind,
  data: Buffer,
): Promise<AttachmentResult> {
  if (!(await isMember(ctx, user.id, ref)))
    throw forbidden(ref.kind === 'chat' ? MSG.chat.notFriends : MSG.groups.notMember);
  const type = await sniffType(await headOf({ data }));
  if (kind === 'image') {
    if (!IMAGE_TYPES.has(type.mime)) throw badRequest(MSG.chat.invalidImage, 'file');
    if (data.length >= CHAT_LIMITS.imageMaxBytes) throw badRequest(MSG.chat.imageTooLarge, 'file');
  } else {
    if (!VOICE_TYPES.includes(type.mime)) throw badRequest(MSG.chat.invalidVoice, 'file');
    if (data.length > CHAT_LIMITS.voiceMaxBytes) throw badRequest(MSG.chat.voiceTooLarge, 'file');
  }
  const file = await storeUpload(
    ctx,
    {
      user,
      target: TARGET[kind],
      params: { kind: ref.kind, id: ref.id },
      filename: `${kind}.${type.ext ?? 'bin'}`,
      filetype: type.mime,
    },
    { data },
  );
  return { url: file.url };
}

/** True when `content` is a stored file of this conversation of the message's kind. */
export async function attachmentIsValid(
  ctx: AppContext,
  ref: ConversationRef,
  kind: AttachmentKind,
  content: string,
): Promise<boolean> {
  const fullPath = filePathOfUrl(content);
  if (!fullPath) return false;
  const folder = `${conversationFolder(ref)}/`;
  const name = fullPath.slice(folder.length);
  if (!fullPath.startsWith(folder) || !name || name.includes('/')) return false;
  const ext = name.slice(name.lastIndexOf('.') + 1);
  if (!(STORED_EXT[kind] as readonly string[]).includes(ext)) return false;
  return (await ctx.storage.head(fullPath)) !== null;
}
