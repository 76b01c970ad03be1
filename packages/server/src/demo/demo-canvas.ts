import { DEMO_TOKEN, startEmulator } from '@studybuddy/canvas-emulator/server';
import type { Config } from '../config.ts';

/**
 * `npm run demo`: a local Canvas emulator with demo courses, so the LMS flow works offline.
 * A fixed port (DEMO_CANVAS_PORT, default 4010) because the Canvas address is stored on the profile at connect time.
 * Every university's Canvas becomes the emulator, except those given a CANVAS_URL_<KEY> of their own.
 */
export async function startDemoCanvas(config: Config): Promise<{ close(): Promise<void>; token: string; url: string }> {
  const port = Number(process.env.DEMO_CANVAS_PORT ?? 4010);
  const emulator = await startEmulator({ port, host: '127.0.0.1' });
  config.universities = config.universities.map((u) =>
    process.env[`CANVAS_URL_${u.key.toUpperCase()}`]?.trim() ? u : { ...u, lms: { kind: 'canvas', url: emulator.url } },
  );
  return { close: () => emulator.close(), token: DEMO_TOKEN, url: emulator.url };
}
