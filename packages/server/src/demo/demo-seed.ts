import { inArray } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { users } from '../db/schema.ts';
import { seedUser } from './seed-users.ts';
import type { AppContext } from '../platform/context.ts';
import { seedChatDemo } from './chat-demo.ts';
import { seedSocialDemo } from './social-demo.ts';
import { DEMO_PASSWORD, DEMO_USERS } from './demo-data.ts';

/** Seeds the demo students once (a restart keeps what is there) and prints their log-ins. */
export async function seedDemo(ctx: AppContext, log: FastifyBaseLogger): Promise<void> {
  const { db } = ctx;
  const emails = DEMO_USERS.map((u) => u.email);
  const existing = new Set(
    (await db.select({ email: users.email }).from(users).where(inArray(users.email, emails))).map((r) => r.email),
  );
  for (const u of DEMO_USERS) if (!existing.has(u.email)) await seedUser(db, u, ctx.config.universities);
  await seedSocialDemo(db);
  await seedChatDemo(ctx);
  log.info(`demo data ready: ${emails.length} students`);
  console.log(`\n  Demo log-ins (password "${DEMO_PASSWORD}"):\n${emails.map((e) => `    ${e}`).join('\n')}\n`);
}
