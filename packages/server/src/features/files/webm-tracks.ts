/** EBML element ids a WebM file's track list is found by. */
const EBML = 0x1a45dfa3;
const SEGMENT = 0x18538067;
const TRACKS = 0x1654ae6b;
const TRACK_ENTRY = 0xae;
const TRACK_TYPE = 0x83;
const CLUSTER = 0x1f43b675;

/** WebM track types (Matroska TrackType): 1 video, 2 audio; anything else counts as 'other'. */
export interface WebmTracks {
  audio: number;
  video: number;
  other: number;
}

interface Vint {
  value: number;
  length: number;
  unknown: boolean;
}

/** An EBML variable-length integer at `at`: an id keeps its marker bit, a size loses it (all ones = unknown). */
function vint(buf: Buffer, at: number, keepMarker: boolean): Vint | null {
  const first = buf[at];
  if (first === undefined || first === 0) return null;
  let length = 1;
  while (!(first & (0x80 >> (length - 1)))) length++;
  if (at + length > buf.length || (keepMarker && length > 4)) return null;
  let value = keepMarker ? first : first & (0xff >> length);
  let allOnes = value === 0xff >> length;
  for (let i = 1; i < length; i++) {
    const b = buf[at + i]!;
    value = value * 256 + b;
    allOnes &&= b === 0xff;
  }
  return { value, length, unknown: !keepMarker && allOnes };
}

/** The elements in buf[from, to): id, where its data starts and ends (an unknown size runs to `to`). */
function* elements(buf: Buffer, from: number, to: number): Generator<{ id: number; start: number; end: number }> {
  let at = from;
  while (at < to) {
    const id = vint(buf, at, true);
    if (!id) return;
    const size = vint(buf, at + id.length, false);
    if (!size) return;
    const start = at + id.length + size.length;
    const end = size.unknown ? to : start + size.value;
    yield { id: id.value, start, end: Math.min(end, to) };
    if (end > to) return;
    at = end;
  }
}

/**
 * The tracks a WebM file declares in its first bytes (`head`), or null when they are not there: its EBML header,
 * then the Segment's Tracks, read before the first Cluster. Every step moves forward, so any input ends in one pass.
 */
export function webmTracks(head: Buffer): WebmTracks | null {
  const top = [...elements(head, 0, head.length)];
  if (top[0]?.id !== EBML) return null;
  const segment = top.find((e) => e.id === SEGMENT);
  if (!segment) return null;
  for (const el of elements(head, segment.start, segment.end)) {
    if (el.id === CLUSTER) return null;
    if (el.id !== TRACKS) continue;
    const tracks: WebmTracks = { audio: 0, video: 0, other: 0 };
    for (const entry of elements(head, el.start, el.end)) {
      if (entry.id !== TRACK_ENTRY) continue;
      let type = 0;
      for (const field of elements(head, entry.start, entry.end)) {
        const n = field.end - field.start;
        if (field.id === TRACK_TYPE && n > 0 && n <= 4) type = head.readUIntBE(field.start, n);
      }
      if (type === 2) tracks.audio++;
      else if (type === 1) tracks.video++;
      else tracks.other++;
    }
    return tracks;
  }
  return null;
}

/** A WebM file with audio tracks only (what MediaRecorder writes for a voice message). */
export function isAudioOnlyWebm(head: Buffer): boolean {
  const tracks = webmTracks(head);
  return !!tracks && tracks.audio > 0 && tracks.video === 0 && tracks.other === 0;
}
