import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_TOKEN, startEmulator, type Emulator } from '@studybuddy/canvas-emulator/server';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { createUser, type TestUser } from '../../test/users.ts';
import { lmsFailureKind } from './course-files.service.ts';

let emu: Emulator;
let t: TestApp;

beforeAll(async () => {
  emu = await startEmulator({ throttle: false });
  t = await createTestApp({ CANVAS_URL_UCLA: emu.url, RATE_LIMITS: 'false' });
});
afterAll(async () => {
  await t?.close();
  await emu?.close();
});

/** What other features reach Canvas files by: the LMS service on the app's registry. */
const canvas = () => t.app.ctx.registry.canvasFiles;

async function connectCanvas(user: TestUser, token: string) {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/lms/connect',
    headers: { cookie: user.cookie },
    payload: { access_token: token },
  });
  expect(res.statusCode, res.body).toBe(200);
}

describe('course files for the documents feature', () => {
  it('lists a course’s files with the module that links them, and downloads one', async () => {
    const user = await createUser(t.app);
    expect(await canvas().isConnected(user.id)).toBe(false);
    await connectCanvas(user, DEMO_TOKEN);
    expect(await canvas().isConnected(user.id)).toBe(true);
    const files = await canvas().list(user.id, '1100');
    const expected = emu.data.files.filter((f) => f.course_id === 1100);
    expect(files.map((f) => f.displayName).sort()).toEqual(expected.map((f) => f.display_name).sort());
    const linked = emu.data.modules
      .filter((m) => m.course_id === 1100)
      .flatMap((m) =>
        m.items.filter((i) => i.type === 'File').map((i) => ({ id: String(i.content_id), module: m.name })),
      );
    const first = linked[0]!;
    expect(files.find((f) => f.id === first.id)!.moduleName).toBe(first.module);
    const pdf = files.find((f) => f.contentType === 'application/pdf')!;
    const { bytes, contentType } = await canvas().download(user.id, '1100', pdf.id);
    expect(contentType).toBe('application/pdf');
    expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
    // A file of another course is not this course's.
    const other = emu.data.files.find((f) => f.course_id === 1101)!;
    const err = await canvas()
      .download(user.id, '1100', String(other.id))
      .catch((e: unknown) => e);
    expect(lmsFailureKind(err)).toBe('not_found');
  });

  it('reports the kinds of failure: not connected, no permission, dead token', async () => {
    const user = await createUser(t.app);
    expect(
      lmsFailureKind(
        await canvas()
          .list(user.id, '1100')
          .catch((e: unknown) => e),
      ),
    ).toBe('not_connected');
    emu.addToken('files-token-0123456789abcdef');
    await connectCanvas(user, 'files-token-0123456789abcdef');
    emu.addFault({ kind: 'forbidden', courseId: 1102, resource: 'files' });
    expect(
      lmsFailureKind(
        await canvas()
          .list(user.id, '1102')
          .catch((e: unknown) => e),
      ),
    ).toBe('forbidden');
    emu.expireToken('files-token-0123456789abcdef');
    expect(
      lmsFailureKind(
        await canvas()
          .list(user.id, '1100')
          .catch((e: unknown) => e),
      ),
    ).toBe('auth');
    emu.clearFaults();
  });
});
