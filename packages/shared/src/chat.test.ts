import { describe, expect, it } from 'vitest';
import { chatIdFor, peerOf, previewOf, sendMessageSchema, unreadLabel } from './chat.ts';
import { hotGroupIdFor, hotGroupSchema } from './groups.ts';
import { MSG } from './messages.ts';

describe('chat rules', () => {
  it('names a chat by the two user ids sorted and joined by an underscore, whoever starts it', () => {
    expect(chatIdFor('b2', 'a1')).toBe('a1_b2');
    expect(chatIdFor('a1', 'b2')).toBe('a1_b2');
    expect(peerOf('a1_b2', 'a1')).toBe('b2');
    expect(peerOf('a1_b2', 'b2')).toBe('a1');
    for (const [id, me] of [
      ['a1_b2', 'c3'],
      ['b2_a1', 'a1'],
      ['a1_a1', 'a1'],
      ['a1', 'a1'],
      ['a1_b2_c3', 'a1'],
    ]) {
      expect(peerOf(id!, me!), id).toBeNull();
    }
  });

  it('shows 99+ above 99 on unread badges', () => {
    expect([0, 1, 99, 100, 5000].map(unreadLabel)).toEqual(['0', '1', '99', '99+', '99+']);
  });

  it('refuses empty text and accepts attachments by address', () => {
    const id = '0b8f2a4e-5d8c-4f0e-9a51-2b7f5c3d1e09';
    expect(sendMessageSchema.safeParse({ id, type: 'text', content: ' \n ' }).error?.issues[0]?.message).toBe(
      MSG.chat.emptyMessage,
    );
    expect(sendMessageSchema.safeParse({ id, type: 'image', content: '/api/files/chats/x/y.png' }).success).toBe(true);
    expect(previewOf('image', '/api/files/x')).toBe(MSG.chat.lastImage);
    expect(previewOf('voice', '/api/files/x')).toBe(MSG.chat.lastVoice);
  });

  it('names a hot group {courseId}_{itemId} and accepts Canvas ids as numbers', () => {
    expect(hotGroupIdFor(1102, 'quiz_7')).toBe('1102_quiz_7');
    expect(hotGroupSchema.parse({ courseId: 1102, itemId: 'quiz_7', name: ' Quiz ' })).toEqual({
      courseId: '1102',
      itemId: 'quiz_7',
      name: 'Quiz',
    });
    expect(hotGroupSchema.safeParse({ courseId: '11_02', itemId: '7', name: 'x' }).success).toBe(false);
  });
});
