import { startCalendarEmulator } from '@studybuddy/calendar-emulator/server';
import type { Config } from '../config.ts';

/**
 * `npm run demo`: a local Google Calendar emulator, so 'Connect Google Calendar' and Export work offline.
 * Not started when Google is configured. A fixed port (DEMO_CALENDAR_PORT, default 4020) so event links stay valid.
 */
export async function startDemoCalendar(config: Config): Promise<{ close(): Promise<void>; url: string } | undefined> {
  if (config.google) return undefined;
  const emulator = await startCalendarEmulator({
    port: Number(process.env.DEMO_CALENDAR_PORT ?? 4020),
    host: '127.0.0.1',
  });
  config.google = {
    clientId: emulator.clientId,
    clientSecret: emulator.clientSecret,
    authUrl: emulator.authUrl,
    tokenUrl: emulator.tokenUrl,
    revokeUrl: emulator.revokeUrl,
    apiUrl: emulator.apiUrl,
  };
  return { close: () => emulator.close(), url: emulator.url };
}
