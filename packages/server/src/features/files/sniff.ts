import { open } from 'node:fs/promises';
import { fileTypeFromBuffer } from 'file-type';
import { isAudioOnlyWebm } from './webm-tracks.ts';

/**
 * How much of a file its type is judged by (file-type's own detection size). Never more: on the whole file, a
 * crafted upload (a ZIP of many entries, nested gzip) would make the check walk or inflate deep into it on the
 * request's thread.
 */
export const SNIFF_BYTES = 4100;

/** A file's type judged by its first bytes; `ext` only for a format file-type recognises. */
export interface SniffedType {
  mime: string;
  ext?: string;
}

/** The first SNIFF_BYTES bytes of an upload, in memory or in a local file. */
export async function headOf(source: { data: Buffer } | { file: string }): Promise<Buffer> {
  if ('data' in source) return source.data.subarray(0, SNIFF_BYTES);
  const handle = await open(source.file, 'r');
  try {
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(SNIFF_BYTES), 0, SNIFF_BYTES, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/** UTF-8 (a character cut at the end is fine) without control characters but tab, line breaks and form feed. */
function isText(head: Buffer): boolean {
  if (head.length === 0) return false;
  for (const byte of head) if ((byte < 0x20 && ![9, 10, 12, 13].includes(byte)) || byte === 0x7f) return false;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(head, { stream: true });
    return true;
  } catch {
    return false;
  }
}

/**
 * The type of a file from its first bytes, never from a name or a declared type: a format file-type recognises
 * (a WebM of audio tracks only as audio/webm), else plain text (an HTML page included: served as text, it never runs), else unknown bytes.
 */
export async function sniffType(head: Buffer): Promise<SniffedType> {
  const bytes = head.subarray(0, SNIFF_BYTES);
  const type = await fileTypeFromBuffer(bytes).catch(() => undefined);
  // WebM is video to file-type; one whose tracks are all audio (a recorded voice message) is audio.
  if (type?.mime === 'video/webm' && isAudioOnlyWebm(bytes)) return { mime: 'audio/webm', ext: 'webm' };
  if (type) return { mime: type.mime, ext: type.ext };
  return { mime: isText(bytes) ? 'text/plain' : 'application/octet-stream' };
}
