/**
 * MediaRecorder writes a live WebM: its Segment has no size and its Info no Duration, so a player shows no length
 * (`duration` is Infinity) until it has read the whole file. This writes the recorded length into Info.
 */

const SEGMENT = [0x18, 0x53, 0x80, 0x67];
const INFO = [0x15, 0x49, 0xa9, 0x66];
const DURATION = [0x44, 0x89];
const EBML_HEADER = [0x1a, 0x45, 0xdf, 0xa3];

/** An EBML size at `at`: its value, its length in bytes and whether it is 'unknown' (all ones). */
function size(b: Uint8Array, at: number): { value: number; length: number; unknown: boolean } | null {
  const first = b[at];
  if (!first) return null;
  let length = 1;
  while (!(first & (0x80 >> (length - 1)))) length++;
  if (at + length > b.length) return null;
  let value = first & (0xff >> length);
  let unknown = value === 0xff >> length;
  for (let i = 1; i < length; i++) {
    value = value * 256 + b[at + i]!;
    unknown &&= b[at + i] === 0xff;
  }
  return { value, length, unknown };
}

const idAt = (b: Uint8Array, at: number, id: number[]) => id.every((x, i) => b[at + i] === x);

/** An 8-byte EBML size. */
function size8(n: number): Uint8Array {
  const out = new Uint8Array(8);
  out[0] = 0x01;
  let v = n;
  for (let i = 7; i > 0; i--) {
    out[i] = v % 256;
    v = Math.floor(v / 256);
  }
  return out;
}

/**
 * The WebM with a Duration of `ms` (at the default timecode scale of 1 ms) in its Segment's Info; the bytes
 * unchanged when they are not a live WebM as MediaRecorder writes it, or already carry a duration.
 */
export function withWebmDuration(bytes: Uint8Array<ArrayBuffer>, ms: number): Uint8Array<ArrayBuffer> {
  if (!idAt(bytes, 0, EBML_HEADER)) return bytes;
  const header = size(bytes, 4);
  if (!header) return bytes;
  const segAt = 4 + header.length + header.value;
  if (!idAt(bytes, segAt, SEGMENT)) return bytes;
  const seg = size(bytes, segAt + 4);
  if (!seg?.unknown) return bytes;
  let at = segAt + 4 + seg.length;
  // Info comes before the first Cluster, within the first elements of the Segment.
  for (let n = 0; n < 8 && at < bytes.length; n++) {
    const idLength = bytes[at]! >= 0x80 ? 1 : bytes[at]! >= 0x40 ? 2 : bytes[at]! >= 0x20 ? 3 : 4;
    const s = size(bytes, at + idLength);
    if (!s || s.unknown) return bytes;
    const start = at + idLength + s.length;
    const end = start + s.value;
    if (idAt(bytes, at, INFO)) {
      for (let p = start; p < end; ) {
        if (idAt(bytes, p, DURATION)) return bytes;
        const pid = bytes[p]! >= 0x80 ? 1 : bytes[p]! >= 0x40 ? 2 : bytes[p]! >= 0x20 ? 3 : 4;
        const ps = size(bytes, p + pid);
        if (!ps) return bytes;
        p += pid + ps.length + ps.value;
      }
      const duration = new Uint8Array(11);
      duration.set([...DURATION, 0x88]);
      new DataView(duration.buffer).setFloat64(3, ms);
      const body = bytes.subarray(start, end);
      const info = new Uint8Array(4 + 8 + body.length + duration.length);
      info.set(INFO);
      info.set(size8(body.length + duration.length), 4);
      info.set(body, 12);
      info.set(duration, 12 + body.length);
      const out = new Uint8Array(at + info.length + (bytes.length - end));
      out.set(bytes.subarray(0, at));
      out.set(info, at);
      out.set(bytes.subarray(end), at + info.length);
      return out;
    }
    at = end;
  }
  return bytes;
}
