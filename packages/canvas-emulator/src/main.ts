// `npm start -w packages/canvas-emulator`: a Canvas LMS emulator with demo data for offline development.
// Environment: CANVAS_EMULATOR_PORT (default 4010; 0 picks a free one), CANVAS_EMULATOR_HOST (127.0.0.1),
// CANVAS_EMULATOR_LATENCY_MS (0), CANVAS_EMULATOR_THROTTLE (429 | 403 | off), CANVAS_EMULATOR_TOKENS (extra valid
// tokens, comma-separated), CANVAS_EMULATOR_DATA (JSON options of the generated data, e.g. {"activeCourses":10}).
import type { DataOptions } from './demo-data.ts';
import { DEMO_TOKEN, startEmulator } from './server.ts';

const env = process.env;
const throttle = env.CANVAS_EMULATOR_THROTTLE;
const extraTokens = (env.CANVAS_EMULATOR_TOKENS ?? '')
  .split(',')
  .map((t) => t.trim())
  .filter(Boolean);
const emulator = await startEmulator({
  tokens: [DEMO_TOKEN, ...extraTokens],
  data: env.CANVAS_EMULATOR_DATA ? (JSON.parse(env.CANVAS_EMULATOR_DATA) as DataOptions) : undefined,
  port: Number(env.CANVAS_EMULATOR_PORT ?? 4010),
  host: env.CANVAS_EMULATOR_HOST ?? '127.0.0.1',
  latencyMs: Number(env.CANVAS_EMULATOR_LATENCY_MS ?? 0),
  throttle: throttle === 'off' ? false : { mode: throttle === '403' ? 403 : 429 },
});
console.log(`Canvas emulator at ${emulator.url}
  demo access token: ${DEMO_TOKEN}
  point the app at it: CANVAS_URL_UCLA=${emulator.url} (also _CMU, _WISC)
  faults: curl -X POST ${emulator.url}/__emulator/faults -d '{"kind":"forbidden","resource":"quizzes","courseId":1101}'`);
const stop = () => void emulator.close().then(() => process.exit(0));
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
