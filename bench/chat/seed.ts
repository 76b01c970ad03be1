// Seeds the chat benchmark's population straight into the database (bulk inserts, one password hash for all):
// N users with complete profiles and sessions, N/2 one-to-one chats of friends, and groups of 10.
//   DATA_DIR=… or DATABASE_URL=… node --import tsx bench/chat/seed.ts <users> <groups> <groupSize>
// Prints JSON: { users: [{ id, token }], chats: [[a, b]], groups: [{ id, members }] }.
import { randomUUID } from 'node:crypto';
import { loadConfig } from '../../packages/server/src/config.ts';
import { openDatabase } from '../../packages/server/src/db/connect.ts';
import { connections, groupMembers, groups, profiles, sessions, users } from '../../packages/server/src/db/schema.ts';
import { hashPassword, newToken } from '../../packages/server/src/platform/passwords.ts';

const [nUsers = 1000, nGroups = 50, groupSize = 10] = process.argv.slice(2).map(Number);
const config = loadConfig();
const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
const db = database.db;
const passwordHash = await hashPassword('password123');
const expiresAt = new Date(Date.now() + 24 * 3600 * 1000);

const people = Array.from({ length: nUsers }, (_, i) => ({ id: randomUUID(), i, ...newToken() }));
const chunk = <T>(xs: T[], n: number) =>
  Array.from({ length: Math.ceil(xs.length / n) }, (_, k) => xs.slice(k * n, k * n + n));

for (const part of chunk(people, 1000)) {
  await db
    .insert(users)
    .values(part.map((p) => ({ id: p.id, email: `bench${p.i}@g.ucla.edu`, passwordHash, emailVerified: true })));
  await db.insert(profiles).values(
    part.map((p) => ({
      userId: p.id,
      email: `bench${p.i}@g.ucla.edu`,
      college: 'UCLA',
      name: `Bench ${p.i}`,
      lowercaseName: `bench ${p.i}`,
      major: 'Computer Science',
      year: 'Junior',
      profilePicture: `/api/avatars/${p.id}.svg`,
      hasCustomProfilePicture: true,
    })),
  );
  await db.insert(sessions).values(part.map((p) => ({ id: p.hash, userId: p.id, expiresAt })));
}

// Chats: user 2k with 2k+1. Groups: consecutive users; every group member is a friend of every other.
const chats: [string, string][] = [];
for (let k = 0; k + 1 < nUsers; k += 2) chats.push([people[k]!.id, people[k + 1]!.id]);
const groupList = Array.from({ length: nGroups }, (_, g) => ({
  id: randomUUID(),
  members: Array.from({ length: groupSize }, (_, j) => people[(g * groupSize + j) % nUsers]!.id),
}));
const pairs = new Set<string>();
for (const [a, b] of chats) pairs.add(`${a}|${b}`).add(`${b}|${a}`);
for (const g of groupList) for (const a of g.members) for (const b of g.members) if (a !== b) pairs.add(`${a}|${b}`);
for (const part of chunk([...pairs], 2000)) {
  await db
    .insert(connections)
    .values(part.map((p) => ({ userId: p.split('|')[0]!, friendId: p.split('|')[1]! })))
    .onConflictDoNothing();
}
for (const g of groupList) {
  await db
    .insert(groups)
    .values({ id: g.id, kind: 'group', name: `Bench group ${g.id.slice(0, 4)}`, createdBy: g.members[0] });
  await db.insert(groupMembers).values(g.members.map((userId) => ({ groupId: g.id, userId })));
}
await database.close();
process.stdout.write(
  JSON.stringify({ users: people.map((p) => ({ id: p.id, token: p.token })), chats, groups: groupList }),
);
