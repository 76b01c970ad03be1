import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LIMITS } from '@studybuddy/shared/limits';
import { fakeUploadServer } from '../test/fake-upload-server.ts';
import { startUpload, type UploadSnapshot } from './upload.ts';

const START = LIMITS.chunkStartBytes;

let server: ReturnType<typeof fakeUploadServer>;

/** A file of `size` bytes whose every byte says where it is (a resent or skipped range shows in the result). */
function file(size: number): Blob {
  const bytes = new Uint8Array(size);
  for (let i = 0; i < size; i++) bytes[i] = (i * 7 + (i >> 8)) & 0xff;
  return new Blob([bytes], { type: 'application/octet-stream' });
}

/** Whether the server holds exactly the file's bytes (compared whole: a deep equal of megabytes is slow). */
async function holds(id: string, blob: Blob) {
  const kept = server.data(id);
  return !!kept && Buffer.from(kept).equals(Buffer.from(await blob.arrayBuffer()));
}

const patches = () => server.log.filter((r) => r.method === 'PATCH').map((r) => [r.offset, r.bytes]);
const methods = () => server.log.map((r) => r.method);

beforeEach(() => {
  vi.useFakeTimers();
  // Back-off without jitter: 1 s, 2 s, 4 s …
  vi.spyOn(Math, 'random').mockReturnValue(0);
  server = fakeUploadServer();
  vi.stubGlobal('XMLHttpRequest', server.Xhr);
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  vi.useRealTimers();
});

describe('uploads', () => {
  it('sends a small file in one request, again after a 503', async () => {
    server.failNext('POST', 503);
    const progress: UploadSnapshot['state'][] = [];
    const task = startUpload(file(1000), { target: 'profile-image', onProgress: (p) => progress.push(p.state) });
    await vi.advanceTimersByTimeAsync(999);
    expect(methods()).toEqual(['POST']);
    await vi.advanceTimersByTimeAsync(100);
    await expect(task.promise).resolves.toMatchObject({ path: 'direct', size: 1000 });
    expect(methods()).toEqual(['POST', 'POST']);
    expect(progress.at(-1)).toBe('success');
  });

  it('sends a large file through tus in chunks that double from 256 KiB', async () => {
    const original = file(6 * START);
    const task = startUpload(original, { target: 'course-document', params: { courseId: 'c1' } });
    await vi.advanceTimersByTimeAsync(100);
    await expect(task.promise).resolves.toMatchObject({ path: 'u1', size: 6 * START });
    expect(patches()).toEqual([
      [0, START],
      [START, 2 * START],
      [3 * START, 3 * START],
    ]);
    expect(await holds('u1', original)).toBe(true);
    expect(
      atob(
        server
          .upload('u1')!
          .metadata.split(',')
          .find((m) => m.startsWith('target '))!
          .slice(7),
      ),
    ).toBe('course-document');
  });

  it('resumes a cut connection from where the server stopped, with the chunk size back at the start', async () => {
    const original = file(8 * START);
    // The second chunk (512 KiB) is cut after 100,000 of its bytes reached the server.
    server.failNext('PATCH', 'ok', { cut: 100_000 });
    const task = startUpload(original, { target: 'course-document' });
    await vi.advanceTimersByTimeAsync(50);
    expect(patches()).toEqual([
      [0, START],
      [START, 100_000],
    ]);
    // After 1 s it asks the server where it stopped and goes on from there.
    await vi.advanceTimersByTimeAsync(1000);
    await expect(task.promise).resolves.toMatchObject({ size: 8 * START });
    expect(methods()).toEqual(['POST', 'PATCH', 'PATCH', 'HEAD', 'PATCH', 'PATCH', 'PATCH']);
    const resumed = START + 100_000;
    expect(patches().slice(2)).toEqual([
      [resumed, START],
      [resumed + START, 2 * START],
      [resumed + 3 * START, 8 * START - resumed - 3 * START],
    ]);
    expect(await holds('u1', original)).toBe(true);
  });

  it('pauses between chunks and resumes the same upload where the server stopped', async () => {
    const original = file(4 * START);
    const states: UploadSnapshot['state'][] = [];
    const task = startUpload(original, { target: 'course-document', onProgress: (p) => states.push(p.state) });
    while (!server.upload('u1')?.offset) await vi.advanceTimersByTimeAsync(1);
    expect(task.pause()).toBe(true);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(task.state).toBe('paused');
    expect(states).toContain('pausing');
    const sent = server.upload('u1')!.offset;
    expect(sent).toBeGreaterThan(0);
    expect(sent).toBeLessThan(4 * START);
    const requests = server.log.length;

    expect(task.resume()).toBe(true);
    await vi.advanceTimersByTimeAsync(100);
    await expect(task.promise).resolves.toMatchObject({ path: 'u1' });
    // No new upload: a HEAD for the offset, then the rest from there.
    const after = server.log.slice(requests);
    expect(after[0]!.method).toBe('HEAD');
    expect(after[1]).toMatchObject({ method: 'PATCH', offset: sent });
    expect(methods().filter((m) => m === 'POST')).toHaveLength(1);
    expect(await holds('u1', original)).toBe(true);
  });

  it("asks for the stored file when the last chunk's answer was lost", async () => {
    const original = file(2 * START);
    server.failNext('PATCH', 'ok', 'lost');
    const fetchMock = vi.fn(async (url: string) => {
      const id = url.split('/').at(-2)!;
      return new Response(JSON.stringify({ file: server.result(id) }), { status: 200 });
    });
    vi.stubGlobal('fetch', fetchMock);
    const task = startUpload(original, { target: 'course-document' });
    await vi.advanceTimersByTimeAsync(1100);
    await expect(task.promise).resolves.toMatchObject({ path: 'u1', size: 2 * START });
    expect(fetchMock.mock.calls.map(([url]) => url)).toEqual(['http://localhost:3000/api/resumable/u1/result']);
    // The bytes went up once.
    expect(patches()).toEqual([
      [0, START],
      [START, START],
    ]);
  });

  it('gives up at once on a quota refusal, with its message', async () => {
    server.failNext('PATCH', 'ok', 429);
    const task = startUpload(file(4 * START), { target: 'course-document' });
    await vi.advanceTimersByTimeAsync(100);
    await expect(task.promise).rejects.toMatchObject({ code: 'quota-exceeded', message: 'refused (429)' });
    expect(patches()).toHaveLength(2);
  });

  it('cancels: the server drops the staged upload and the task rejects as canceled', async () => {
    const task = startUpload(file(4 * START), { target: 'course-document' });
    await vi.advanceTimersByTimeAsync(2);
    expect(task.cancel()).toBe(true);
    await vi.advanceTimersByTimeAsync(100);
    await expect(task.promise).rejects.toMatchObject({ code: 'canceled' });
    expect(server.terminated()).toBe(1);
    expect(task.state).toBe('canceled');
  });
});
