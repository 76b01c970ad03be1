import { buildApp } from './app.ts';
import { ConfigError, loadConfig } from './config.ts';
import { startDemoCalendar } from './demo/demo-calendar.ts';
import { startDemoCanvas } from './demo/demo-canvas.ts';
import { seedDemo } from './demo/demo-seed.ts';
import { listen } from './platform/listen.ts';
import { createShutdown } from './platform/shutdown.ts';

async function main() {
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(`Configuration error: ${err.message}`);
      process.exit(1);
    }
    throw err;
  }
  const canvas = config.demo ? await startDemoCanvas(config) : undefined;
  const calendar = config.demo ? await startDemoCalendar(config) : undefined;
  const app = await buildApp(config);
  if (config.demo) await seedDemo(app.ctx, app.log);
  if (canvas) console.log(`  Demo Canvas at ${canvas.url}; token for "Connect Canvas": ${canvas.token}\n`);
  if (calendar) console.log(`  Demo Google Calendar at ${calendar.url} (Coursework → Connect Google Calendar)\n`);
  const shutdown = createShutdown({ app, log: app.log, also: [() => canvas?.close(), () => calendar?.close()] });
  // Readiness fails first, so a load balancer stops sending while in-flight requests finish.
  shutdown.onStart(() => (app.ctx.lifecycle.ready = false));
  shutdown.listen();
  await listen(app, config);
  console.log(`\n  StudyBuddy is running at ${config.publicUrl}\n`);
}

main().catch((err) => {
  // A setting found wrong only once the database is open (the universities file against stored students).
  if (err instanceof ConfigError) {
    console.error(`Configuration error: ${err.message}`);
    process.exit(1);
  }
  console.error(err);
  process.exit(1);
});
