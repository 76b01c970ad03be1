import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { chatIdFor } from '@studybuddy/shared/chat';
import { groups, messages } from '../db/schema.ts';
import { befriend } from '../features/chat/chat.test-kit.ts';
import { createTestApp, type TestApp } from '../test/test-app.ts';
import { createUser } from '../test/users.ts';
import { DEMO_CHAT, seedChatDemo } from './chat-demo.ts';

describe('chat demo data', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('seeds a chat between demo friends and a group once, however often it runs', async () => {
    const ada = await createUser(t.app, { email: 'ada@g.ucla.edu', name: 'Ada Park' });
    const chloe = await createUser(t.app, { email: 'chloe@g.ucla.edu', name: 'Chloe Nguyen' });
    await befriend(t.app, ada, chloe);
    await seedChatDemo(t.app.ctx);
    await seedChatDemo(t.app.ctx);
    const chat = await t.app.ctx.db
      .select()
      .from(messages)
      .where(eq(messages.conversationId, chatIdFor(ada.id, chloe.id)));
    expect(chat.map((m) => m.content)).toEqual(DEMO_CHAT.chat.lines.map(([, text]) => text));
    expect(chat[0]).toMatchObject({ senderId: chloe.id, senderName: 'Chloe Nguyen' });
    const group = await t.app.ctx.db.select().from(messages).where(eq(messages.conversationId, DEMO_CHAT.group.id));
    expect(group).toHaveLength(1);
    const [row] = await t.app.ctx.db.select().from(groups).where(eq(groups.id, DEMO_CHAT.group.id));
    expect(row).toMatchObject({
      name: DEMO_CHAT.group.name,
      createdBy: ada.id,
      lastMessage: DEMO_CHAT.group.lines[0][1],
    });
  });
});
