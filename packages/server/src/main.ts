import { buildApp } from './app.ts';
import { ConfigError, loadConfig } from './config.ts';
import { seedDemo } from './demo/demo-seed.ts';

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
  const app = await buildApp(config);
  if (config.demo) await seedDemo(app.ctx.db, app.log);
  const close = async () => {
    await app.close();
    process.exit(0);
  };
  process.once('SIGINT', close);
  process.once('SIGTERM', close);
  await app.listen({ port: config.port, host: config.host });
  console.log(`\n  StudyBuddy is running at ${config.publicUrl}\n`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
