import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import type { TestUser } from '../../test/users.ts';
import { friends } from './chat.test-kit.ts';
import { accessSql } from './conversation-access.ts';
import { writeBatchStatement } from './conversation.repository.ts';

/**
 * The batch write's plan, as prepared once for every batch size: who may write is probed per message through an
 * index, never by hashing a whole table (friendships, memberships) in each batch, which made a batch of one
 * message scan every friendship on the campus.
 */
describe('the batch write plan', () => {
  let t: TestApp;
  let ada: TestUser;
  let bob: TestUser;
  beforeAll(async () => {
    t = await createTestApp();
    [ada, bob] = await friends(t.app, 2, ['Ada', 'Bob']);
  });
  afterAll(() => t.close());

  it('checks each message with a per-row probe, not a hashed scan of a table', async () => {
    const [a, b] = [ada.id, bob.id].sort() as [string, string];
    const json = JSON.stringify([
      { ord: 0, id: randomUUID(), kind: 'chat', conv: `${a}_${b}`, sender: ada.id, sender_name: 'Ada', peer: bob.id },
      { ord: 1, id: randomUUID(), kind: 'group', conv: randomUUID(), sender: ada.id, sender_name: 'Ada', peer: '' },
    ]);
    const { text } = writeBatchStatement(accessSql(t.app.ctx));
    const literal = `'${json.replaceAll("'", "''")}'`;
    const result = await t.app.ctx.db.execute(sql.raw(`explain ${text.replace('$1', literal)}`));
    const plan = (result as unknown as { rows: Record<string, string>[] }).rows.map((r) => r['QUERY PLAN']).join('\n');
    expect(plan).toContain('SubPlan');
    expect(plan).not.toMatch(/hashed SubPlan/i);
  });
});
