// `npm start -w packages/calendar-emulator`: a Google OAuth + Calendar v3 emulator for offline development.
// Environment: CALENDAR_EMULATOR_PORT (default 4020; 0 picks a free one), CALENDAR_EMULATOR_HOST (127.0.0.1),
// CALENDAR_EMULATOR_EXPIRES_IN (access token lifetime in seconds, 3599).
import { startCalendarEmulator } from './server.ts';

const env = process.env;
const emulator = await startCalendarEmulator({
  port: Number(env.CALENDAR_EMULATOR_PORT ?? 4020),
  host: env.CALENDAR_EMULATOR_HOST ?? '127.0.0.1',
  expiresIn: Number(env.CALENDAR_EMULATOR_EXPIRES_IN ?? 3599),
});
console.log(`Google Calendar emulator at ${emulator.url}
  point the app at it:
${Object.entries(emulator.env)
  .map(([k, v]) => `    ${k}=${v}`)
  .join('\n')}
  make inserts fail: curl -X POST ${emulator.url}/__emulator/faults -d '{"summary":"Essay"}'`);
const stop = () => void emulator.close().then(() => process.exit(0));
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
