// Seeds accounts into a data dir before the server starts (e2e tests): node --import tsx src/cli/seed.ts '<json>'
import { loadConfig } from '../config.ts';
import { openDatabase } from '../db/connect.ts';
import { seedFriendships, seedUser, type SeedUser } from '../demo/seed-users.ts';

const users = JSON.parse(process.argv[2] ?? '[]') as SeedUser[];
const config = loadConfig();
const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
const ids: Record<string, string> = {};
for (const u of users) ids[u.email.toLowerCase()] = await seedUser(database.db, u, config.universities);
await seedFriendships(database.db, users, ids);
await database.close();
process.stdout.write(JSON.stringify(ids));
