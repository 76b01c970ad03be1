import { describe, expect, it } from 'vitest';
import { withWebmDuration } from './webm-duration.ts';

/** An EBML element with a 1-byte size, or an unknown size (0x01 ff…ff) as MediaRecorder writes a live Segment. */
const el = (id: number[], data: number[], unknown = false) =>
  unknown ? [...id, 0x01, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, ...data] : [...id, 0x80 | data.length, ...data];

const header = el(
  [0x1a, 0x45, 0xdf, 0xa3],
  el(
    [0x42, 0x82],
    [...'webm'].map((c) => c.charCodeAt(0)),
  ),
);
const info = el([0x15, 0x49, 0xa9, 0x66], el([0x2a, 0xd7, 0xb1], [0x0f, 0x42, 0x40]));
const tracks = el([0x16, 0x54, 0xae, 0x6b], el([0xae], el([0x83], [2])));
const cluster = el([0x1f, 0x43, 0xb6, 0x75], [...el([0xe7], [0]), ...el([0xa3], [1, 2, 3, 4])], true);
const live = new Uint8Array([...header, ...el([0x18, 0x53, 0x80, 0x67], [...info, ...tracks, ...cluster], true)]);

/** The Duration (0x4489) float in the bytes, if any. */
function durationOf(b: Uint8Array): number | null {
  for (let i = 0; i + 11 <= b.length; i++) {
    if (b[i] === 0x44 && b[i + 1] === 0x89 && b[i + 2] === 0x88)
      return new DataView(b.buffer, b.byteOffset + i + 3, 8).getFloat64(0);
  }
  return null;
}

describe('withWebmDuration', () => {
  it("writes the recorded length into a live WebM's Info, keeping everything else in place", () => {
    expect(durationOf(live)).toBeNull();
    const out = withWebmDuration(live, 2345);
    expect(durationOf(out)).toBe(2345);
    expect(out.length).toBe(live.length + 11 + 7); // the Duration, and Info's size now 8 bytes
    const infoAt = header.length + 12;
    expect([...out.subarray(infoAt, infoAt + 4)]).toEqual([0x15, 0x49, 0xa9, 0x66]);
    expect([...out.subarray(out.length - tracks.length - cluster.length)]).toEqual([...tracks, ...cluster]);
    // Once is enough: a WebM with a duration is left alone.
    expect(withWebmDuration(out, 999)).toBe(out);
  });

  it('leaves other bytes alone', () => {
    const ogg = new Uint8Array([...'OggS'].map((c) => c.charCodeAt(0)));
    expect(withWebmDuration(ogg, 1000)).toBe(ogg);
    const truncated = live.subarray(0, header.length + 6);
    expect(withWebmDuration(truncated, 1000)).toBe(truncated);
  });
});
