import { z } from 'zod';
import { badRequest } from '../../platform/errors.ts';

/** Position after the last candidate of a page, in the ranking order (score desc, newest first, id desc). */
export interface MatchCursor {
  score: number;
  /** The further signal's value (free time in common); 0 without one. */
  free: number;
  /** UTC timestamp with microseconds, as the ranking writes it. */
  createdAt: string;
  id: string;
}

const cursorSchema = z.tuple(
  [
    z.number().int().min(0).max(1_000_000),
    z.string().regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/),
    z.string().min(1).max(100),
  ],
  z.number().int().min(0).max(999),
);

export function encodeCursor(c: MatchCursor): string {
  return Buffer.from(JSON.stringify([c.score, c.createdAt, c.id, c.free])).toString('base64url');
}

/** Decodes a cursor from the client; anything malformed is a 400, never a 500. */
export function decodeCursor(raw: string): MatchCursor {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8'));
  } catch {
    throw badRequest('Invalid cursor.', 'cursor');
  }
  const result = cursorSchema.safeParse(parsed);
  if (!result.success) throw badRequest('Invalid cursor.', 'cursor');
  const [score, createdAt, id, free = 0] = result.data;
  return { score, createdAt, id, free };
}
