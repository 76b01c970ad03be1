// Seeds accounts into a data dir before the server starts (e2e tests): node dist/seed.js '<json>' [--serve]
// Prints the new accounts' ids by e-mail as one line of JSON. With --serve the server then starts in this process
// (main.ts): a journey's seed and server share one start-up (Node, the bundle, PGlite's WebAssembly) instead of two.
import { loadConfig } from '../config.ts';
import { openDatabase } from '../db/connect.ts';
import { seedFriendships, seedUser, type SeedUser } from '../demo/seed-users.ts';
import { hashPassword } from '../platform/passwords.ts';

const users = JSON.parse(process.argv[2] ?? '[]') as SeedUser[];
const serve = process.argv.includes('--serve');
const config = loadConfig();
const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
const ids: Record<string, string> = {};
// One scrypt hash per password, not per account: a journey's five accounts share 'password123' (issue 32).
const hashes = new Map<string, Promise<string>>();
const hashOf = (password: string) => {
  if (!hashes.has(password)) hashes.set(password, hashPassword(password));
  return hashes.get(password)!;
};
for (const u of users) {
  const passwordHash = u.passwordHash ?? (await hashOf(u.password ?? 'password123'));
  ids[u.email.toLowerCase()] = await seedUser(database.db, { ...u, passwordHash }, config.universities);
}
await seedFriendships(database.db, users, ids);
await database.close();
process.stdout.write(`${JSON.stringify(ids)}\n`);
if (serve) await import('../main.ts');
