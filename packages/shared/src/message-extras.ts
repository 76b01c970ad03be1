import { z } from 'zod';
import { MESSAGE_TYPES } from './chat.ts';
import { MSG } from './messages.ts';

/**
 * Replies and reactions of chat messages (issue 30 points 1 and 2). A reply names the message it answers and shows a
 * quote of it; a reaction is one of a bounded set of emoji, at most one of each per student per message.
 */

/** The six shown under a message's React button. */
export const QUICK_REACTIONS = ['👍', '❤️', '😂', '😮', '😢', '🙏'] as const;

/** The picker's others: with the quick six, every emoji a reaction may be (the server refuses any other). */
export const MORE_REACTIONS = [
  '🎉',
  '🔥',
  '👏',
  '💯',
  '🤔',
  '👀',
  '✅',
  '❌',
  '😍',
  '🙌',
  '😅',
  '🤯',
  '💪',
  '📚',
  '🥳',
  '😭',
  '🤝',
  '😎',
] as const;

export const REACTION_EMOJI = [...QUICK_REACTIONS, ...MORE_REACTIONS] as const;
export type ReactionEmoji = (typeof REACTION_EMOJI)[number];

export const isReactionEmoji = (emoji: string): emoji is ReactionEmoji =>
  (REACTION_EMOJI as readonly string[]).includes(emoji);

/** Adds (`reacted: true`) or takes back (`false`) the student's reaction with one emoji; repeating either is harmless. */
export const reactSchema = z.object({
  emoji: z.string({ error: MSG.reactions.notAllowed }).refine(isReactionEmoji, { message: MSG.reactions.notAllowed }),
  reacted: z.boolean(),
});
export type ReactInput = z.infer<typeof reactSchema>;

/** One emoji's reactions on a message: who, in the order they reacted. */
export const messageReactionSchema = z.object({
  emoji: z.string(),
  users: z.array(z.object({ id: z.string(), name: z.string() })),
});
export type MessageReaction = z.infer<typeof messageReactionSchema>;

/**
 * What a reply shows of the message it answers, as that message is now: its sender and the first line of its text
 * (`excerpt`; empty for a picture or voice message, which show their kind), or only `deleted` once it was deleted
 * (or is gone). `cursor` opens the history at it.
 */
export const messageQuoteSchema = z.object({
  id: z.string(),
  cursor: z.number().optional(),
  senderId: z.string().nullable().optional(),
  senderName: z.string().optional(),
  type: z.enum(MESSAGE_TYPES).optional(),
  excerpt: z.string().optional(),
  deleted: z.boolean().optional(),
});
export type MessageQuote = z.infer<typeof messageQuoteSchema>;

/** Longest excerpt of a quoted text, in characters. */
export const QUOTE_MAX_CHARS = 140;

/** The first non-empty line of a text, shortened to QUOTE_MAX_CHARS. */
export function quoteExcerpt(text: string): string {
  const line =
    text
      .split('\n')
      .map((l) => l.trim())
      .find(Boolean) ?? '';
  return line.length > QUOTE_MAX_CHARS ? `${line.slice(0, QUOTE_MAX_CHARS - 1)}…` : line;
}

/** What a quote says of the original: its first line, "Photo", "Voice message", or that it was deleted. */
export function quoteText(quote: MessageQuote): string {
  if (quote.deleted) return MSG.replies.deleted;
  if (quote.type === 'image') return MSG.replies.photo;
  if (quote.type === 'voice') return MSG.replies.voice;
  return quote.excerpt ?? '';
}
