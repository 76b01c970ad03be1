import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { QueryClient } from '@tanstack/react-query';
import type { ChatList, ChatMessage, ConversationRef, UnreadCounts } from '@studybuddy/shared/chat';
import type { GroupList, GroupSummary } from '@studybuddy/shared/groups';
import type { RealtimeEvent } from '@studybuddy/shared/realtime';
import { realtime } from '../../lib/realtime.ts';
import { fakeChatServer } from '../../test/fake-chat-server.ts';
import { FakeWebSocket } from '../../test/fake-websocket.ts';
import { groupsLive } from '../groups/index.ts';
import { conversationKeys } from './conversations-api.ts';
import { conversationsLive } from './live-handlers.ts';
import { markOpen, type History } from './message-cache.ts';
import { outbox } from './outbox.ts';

const chat: ConversationRef = { kind: 'chat', id: 'a_me' };
const group: ConversationRef = { kind: 'group', id: 'g1' };
const groupListKey = ['groups', 'list', 'group'];

const message = (cursor: number, conversation: ConversationRef, senderId = 'a'): ChatMessage => ({
  id: `m${cursor}`,
  cursor,
  conversation,
  senderId,
  senderName: senderId.toUpperCase(),
  type: 'text',
  content: `message ${cursor}`,
  createdAt: new Date(1_700_000_000_000 + cursor * 1000).toISOString(),
});

const groupSummary = (id: string, lastMessageTime: string): GroupSummary =>
  ({
    id,
    name: id,
    kind: 'group',
    groupImage: '',
    memberCount: 3,
    createdAt: new Date(0).toISOString(),
    lastMessage: '',
    lastMessageTime,
    lastMessageSender: null,
    unread: 0,
  }) as GroupSummary;

let client: QueryClient;
let stop: () => void;

/** The app's channel with the conversations' and groups' handlers, as the RealtimeProvider registers them. */
function open(cursor = 10) {
  client = new QueryClient();
  const release = realtime.acquire('me');
  const offs = [conversationsLive({ client, me: 'me' }), groupsLive({ client, me: 'me' })];
  stop = () => {
    offs.forEach((off) => off());
    release();
  };
  FakeWebSocket.last.accept();
  FakeWebSocket.last.receive({ type: 'hello', cursor });
}

const event = (e: RealtimeEvent) => FakeWebSocket.last.receive({ type: 'event', event: e });

beforeEach(() => {
  vi.useFakeTimers();
  vi.spyOn(Math, 'random').mockReturnValue(0);
  localStorage.clear();
  FakeWebSocket.all = [];
  vi.stubGlobal('WebSocket', FakeWebSocket);
});

afterEach(async () => {
  stop();
  // The channel closes a second after its last holder lets go.
  await vi.advanceTimersByTimeAsync(1000);
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  vi.useRealTimers();
});

describe('conversation and group handlers on the real-time channel', () => {
  it("put a new message into the history and the chat list, and settle the outbox's copy", async () => {
    const server = fakeChatServer();
    server.failNext('send', 'network');
    vi.stubGlobal('fetch', server.fetch);
    vi.spyOn(realtime, 'sendMessage').mockImplementation(server.send);
    open();
    const history: History = { pages: [{ messages: [message(9, chat)], hasMore: false }], pageParams: [undefined] };
    client.setQueryData(conversationKeys.messages(chat), history);
    client.setQueryData<ChatList>(conversationKeys.list, {
      chats: [{ chatId: chat.id, lastMessage: '', lastMessageTime: null, lastMessageSender: null } as never],
    });
    outbox.add({ id: 'm11', type: 'text', text: 'mine', conversation: chat, senderId: 'me', senderName: 'Me' });
    await vi.advanceTimersByTimeAsync(0);

    event({ type: 'message.created', message: message(11, chat, 'me') });
    const pages = client.getQueryData<History>(conversationKeys.messages(chat))!.pages;
    expect(pages[0]!.messages.map((m) => m.id)).toEqual(['m9', 'm11']);
    expect(client.getQueryData<ChatList>(conversationKeys.list)!.chats[0]).toMatchObject({
      lastMessage: 'message 11',
      lastMessageSender: 'me',
    });
    // The socket brought the message the outbox was still trying to send: nothing is sent again.
    expect(outbox.snapshot()).toEqual([]);
    await vi.advanceTimersByTimeAsync(5000);
    expect(server.sends).toEqual(['m11']);
  });

  it("count another member's group message as unread unless the group is on screen, and move it to the top", () => {
    open();
    client.setQueryData<GroupList>(groupListKey, {
      groups: [groupSummary('g0', '2023-01-02T00:00:00.000Z'), groupSummary('g1', '2023-01-01T00:00:00.000Z')],
    });
    event({ type: 'message.created', message: message(11, group) });
    let groups = client.getQueryData<GroupList>(groupListKey)!.groups;
    expect(groups.map((g) => [g.id, g.unread])).toEqual([
      ['g1', 1],
      ['g0', 0],
    ]);

    event({ type: 'message.created', message: message(12, group, 'me') });
    const close = markOpen(group);
    event({ type: 'message.created', message: message(13, group) });
    close();
    groups = client.getQueryData<GroupList>(groupListKey)!.groups;
    expect(groups.find((g) => g.id === 'g1')).toMatchObject({ unread: 1, lastMessage: 'message 13' });

    // The server's count wins.
    event({ type: 'unread.changed', conversation: group, count: 0 });
    expect(client.getQueryData<GroupList>(groupListKey)!.groups.find((g) => g.id === 'g1')!.unread).toBe(0);
  });

  it('fetch the group list again when a message comes for a group it does not hold yet (its fetch may be older)', () => {
    open();
    client.setQueryData<GroupList>(groupListKey, { groups: [groupSummary('g0', '2023-01-02T00:00:00.000Z')] });
    event({ type: 'message.created', message: message(11, { kind: 'group', id: 'g0' }) });
    expect(client.getQueryState(groupListKey)!.isInvalidated).toBe(false);
    event({ type: 'message.created', message: message(12, group) });
    expect(client.getQueryState(groupListKey)!.isInvalidated).toBe(true);
  });

  it('show an edited or deleted message as it is now, in the history and the lists, and resync after its change', async () => {
    open();
    const history: History = {
      pages: [{ messages: [message(9, chat), message(10, chat)], hasMore: false }],
      pageParams: [undefined],
    };
    client.setQueryData(conversationKeys.messages(chat), history);
    client.setQueryData<ChatList>(conversationKeys.list, {
      chats: [{ chatId: chat.id, lastMessage: 'message 10', lastMessageTime: null, lastMessageSender: 'a' } as never],
    });
    client.setQueryData<GroupList>(groupListKey, { groups: [groupSummary('g1', '2023-01-01T00:00:00.000Z')] });
    const deletedAt = new Date().toISOString();
    event({ type: 'message.updated', message: { ...message(10, chat), content: '', deletedAt }, cursor: 30 });
    event({
      type: 'chat.updated',
      conversation: chat,
      last: { lastMessage: 'Message deleted', lastMessageTime: null, lastMessageSender: 'a' },
    });
    event({
      type: 'chat.updated',
      conversation: group,
      last: { lastMessage: 'fixed words', lastMessageTime: null, lastMessageSender: 'a' },
    });
    const shown = client.getQueryData<History>(conversationKeys.messages(chat))!.pages[0]!.messages;
    expect(shown.map((m) => [m.id, m.content, m.deletedAt])).toEqual([
      ['m9', 'message 9', undefined],
      ['m10', '', deletedAt],
    ]);
    expect(client.getQueryData<ChatList>(conversationKeys.list)!.chats[0]!.lastMessage).toBe('Message deleted');
    expect(client.getQueryData<GroupList>(groupListKey)!.groups[0]!.lastMessage).toBe('fixed words');
    // The next resync starts after the change.
    FakeWebSocket.last.drop();
    await vi.advanceTimersByTimeAsync(250);
    expect(FakeWebSocket.last.url).toMatch(/\?cursor=30$/);
  });

  it("keep the friends' unread counts as the server sends them", () => {
    open();
    client.setQueryData<UnreadCounts>(conversationKeys.unread, { total: 2, byFriend: { a: 2 } });
    event({ type: 'unread.changed', conversation: { kind: 'chat', id: 'b_me' }, friendId: 'b', count: 3 });
    expect(client.getQueryData(conversationKeys.unread)).toEqual({ total: 5, byFriend: { a: 2, b: 3 } });
    event({ type: 'unread.changed', conversation: chat, friendId: 'a', count: 0 });
    expect(client.getQueryData(conversationKeys.unread)).toEqual({ total: 3, byFriend: { b: 3 } });
  });

  it('after a reconnect, refetch the counts and lists, and the histories too when the resync had to skip', async () => {
    open();
    const history: History = { pages: [{ messages: [message(9, chat)], hasMore: false }], pageParams: [undefined] };
    client.setQueryData(conversationKeys.messages(chat), history);
    client.setQueryData<UnreadCounts>(conversationKeys.unread, { total: 0, byFriend: {} });
    client.setQueryData<GroupList>(groupListKey, { groups: [] });
    const stale = (key: readonly unknown[]) => client.getQueryState(key)!.isInvalidated;

    FakeWebSocket.last.drop();
    await vi.advanceTimersByTimeAsync(250);
    FakeWebSocket.last.accept();
    FakeWebSocket.last.receive({ type: 'hello', cursor: 20 });
    FakeWebSocket.last.receive({ type: 'resync.done', cursor: 20, truncated: false });
    expect(stale(conversationKeys.unread)).toBe(true);
    expect(stale(groupListKey)).toBe(true);
    expect(stale(conversationKeys.messages(chat))).toBe(false);

    FakeWebSocket.last.drop();
    await vi.advanceTimersByTimeAsync(250);
    FakeWebSocket.last.accept();
    FakeWebSocket.last.receive({ type: 'hello', cursor: 900 });
    FakeWebSocket.last.receive({ type: 'resync.done', cursor: 900, truncated: true });
    expect(stale(conversationKeys.messages(chat))).toBe(true);
  });

  it('send what the outbox holds as soon as the channel is back', async () => {
    const server = fakeChatServer();
    vi.stubGlobal('fetch', server.fetch);
    vi.spyOn(realtime, 'sendMessage').mockImplementation(server.send);
    open();
    server.failNext('send', 'network', 'network');
    outbox.add({ id: 'm1', type: 'text', text: 'hello', conversation: chat, senderId: 'me', senderName: 'Me' });
    await vi.advanceTimersByTimeAsync(1000);
    expect(server.sends).toEqual(['m1', 'm1']); // the next try would wait 2 s
    FakeWebSocket.last.drop();
    await vi.advanceTimersByTimeAsync(250);
    FakeWebSocket.last.accept();
    FakeWebSocket.last.receive({ type: 'hello', cursor: 10 });
    await vi.advanceTimersByTimeAsync(0);
    expect(server.stored.map((m) => m.id)).toEqual(['m1']);
  });

  it('send what the outbox holds as soon as the server asks for a resync (its database is back)', async () => {
    const server = fakeChatServer();
    vi.stubGlobal('fetch', server.fetch);
    vi.spyOn(realtime, 'sendMessage').mockImplementation(server.send);
    open();
    server.failNext('send', 503, 503, 503);
    outbox.add({ id: 'm1', type: 'text', text: 'hello', conversation: chat, senderId: 'me', senderName: 'Me' });
    await vi.advanceTimersByTimeAsync(3000);
    expect(server.sends).toEqual(['m1', 'm1', 'm1']); // the next try would wait 4 s
    // The socket stayed open; the server's bus reconnected and it asks every socket to resync.
    FakeWebSocket.last.receive({ type: 'resync.required' });
    FakeWebSocket.last.receive({ type: 'resync.done', cursor: 10, truncated: false });
    await vi.advanceTimersByTimeAsync(0);
    expect(server.stored.map((m) => m.id)).toEqual(['m1']);
  });
});
