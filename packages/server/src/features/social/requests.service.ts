import { randomUUID } from 'node:crypto';
import { BLOCK_ERRORS } from '@studybuddy/shared/blocks';
import { MSG } from '@studybuddy/shared/messages';
import { SOCIAL_ERRORS, type SendRequestResult } from '@studybuddy/shared/social';
import type { Db } from '../../db/connect.ts';
import { AppError, forbidden } from '../../platform/errors.ts';
import { profiles } from '../profile/profiles.service.ts';
import { hasBlocked } from './blocks.repository.ts';
import { addFriendship, areFriends, removeFriendship } from './friends.repository.ts';
import type { Member } from './member.ts';
import {
  deletePending,
  findPending,
  findRequest,
  insertPending,
  lockPair,
  markAccepted,
  markDeclined,
  type FriendRequestRow,
} from './requests.repository.ts';
import { withTransaction } from '../../db/transaction.ts';

const requestNotFound = () => new AppError(404, SOCIAL_ERRORS.requestNotFound, MSG.match.requestNotFound);

/** Runs `fn` in one transaction: every rule below writes all of its rows or none. */
const inTransaction = withTransaction;

/** A unique violation, however the driver (pg, PGlite) or Drizzle wraps it. */
function isUniqueViolation(err: unknown): boolean {
  for (let e = err; e && typeof e === 'object'; e = (e as { cause?: unknown }).cause) {
    if ((e as { code?: unknown }).code === '23505') return true;
  }
  return false;
}

/** Accepts a pending request inside a transaction that holds the pair lock; both become friends. */
async function acceptLocked(tx: Db, request: FriendRequestRow): Promise<void> {
  if (!(await markAccepted(tx, request.id))) throw requestNotFound();
  // A request the other way round is answered by this acceptance too.
  const reverse = await findPending(tx, request.toUserId, request.fromUserId);
  if (reverse) await markAccepted(tx, reverse.id);
  await addFriendship(tx, request.fromUserId, request.toUserId);
}

/** A send's answer; `unseen` when nothing was stored or shown to the recipient (they blocked the sender). */
export type SendOutcome = SendRequestResult & { unseen?: true };

/**
 * Send (requirements §4): refused to oneself, to another college, to a friend, and while a pending request from the
 * same sender to the same recipient exists. When the recipient has already asked the sender, the two become friends.
 * Between a blocked pair (issue 24) no request goes: the blocker is told to unblock first; the blocked student gets
 * the ordinary answer of a sent request, and nothing is stored, shown, mailed or pushed to the blocker.
 */
export async function sendRequest(db: Db, me: Member, toUserId: string): Promise<SendOutcome> {
  if (toUserId === me.id) throw new AppError(400, SOCIAL_ERRORS.selfRequest, MSG.match.selfRequest, 'toUserId');
  const target = await profiles.member(db, toUserId);
  if (!target || !target.complete) throw new AppError(404, 'not_found', MSG.match.invalidMatch, 'toUserId');
  if (target.college !== me.college) throw new AppError(403, SOCIAL_ERRORS.otherCollege, MSG.match.otherCollege);
  try {
    return await inTransaction(db, async (tx) => {
      await lockPair(tx, me.id, toUserId);
      if (await hasBlocked(tx, me.id, toUserId)) {
        throw new AppError(409, BLOCK_ERRORS.youBlocked, MSG.block.youBlocked);
      }
      if (await hasBlocked(tx, toUserId, me.id)) {
        return { outcome: 'sent', requestId: randomUUID(), unseen: true } as const;
      }
      if (await areFriends(tx, me.id, toUserId)) {
        throw new AppError(409, SOCIAL_ERRORS.alreadyFriends, MSG.match.alreadyFriends);
      }
      if (await findPending(tx, me.id, toUserId)) {
        throw new AppError(409, SOCIAL_ERRORS.requestExists, MSG.match.alreadySent);
      }
      const theirs = await findPending(tx, toUserId, me.id);
      if (theirs) {
        await acceptLocked(tx, theirs);
        return { outcome: 'connected', requestId: theirs.id } as const;
      }
      return { outcome: 'sent', requestId: await insertPending(tx, me.id, toUserId) } as const;
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw new AppError(409, SOCIAL_ERRORS.requestExists, MSG.match.alreadySent);
    throw err;
  }
}

/** Accept (requirements §4): only the addressee; status accepted, acceptedAt, both connections, one transaction. */
export async function acceptRequest(db: Db, me: Member, requestId: string): Promise<{ friendId: string }> {
  const request = await findRequest(db, requestId);
  if (!request) throw requestNotFound();
  if (request.toUserId !== me.id) throw forbidden();
  return inTransaction(db, async (tx) => {
    await lockPair(tx, request.fromUserId, request.toUserId);
    const fresh = await findRequest(tx, requestId);
    if (!fresh || fresh.status === 'declined') throw requestNotFound();
    if (fresh.status === 'pending') await acceptLocked(tx, fresh);
    return { friendId: fresh.fromUserId };
  });
}

/** Decline: only the addressee, only while pending. */
export async function declineRequest(db: Db, me: Member, requestId: string): Promise<{ fromUserId: string }> {
  const request = await findRequest(db, requestId);
  if (!request) throw requestNotFound();
  if (request.toUserId !== me.id) throw forbidden();
  await inTransaction(db, async (tx) => {
    await lockPair(tx, request.fromUserId, request.toUserId);
    if (!(await markDeclined(tx, requestId))) throw requestNotFound();
  });
  return { fromUserId: request.fromUserId };
}

/** Unsend: only the sender; the pending request is deleted. */
export async function unsendRequest(db: Db, me: Member, requestId: string): Promise<{ toUserId: string }> {
  const request = await findRequest(db, requestId);
  if (!request) throw requestNotFound();
  if (request.fromUserId !== me.id) throw forbidden();
  await inTransaction(db, async (tx) => {
    await lockPair(tx, request.fromUserId, request.toUserId);
    if (!(await deletePending(tx, requestId))) throw requestNotFound();
  });
  return { toUserId: request.toUserId };
}

/** Unfriend (requirements §4): each is removed from the other's connections. */
export async function unfriend(db: Db, me: Member, friendId: string): Promise<void> {
  const removed = await inTransaction(db, async (tx) => {
    await lockPair(tx, me.id, friendId);
    return removeFriendship(tx, me.id, friendId);
  });
  if (!removed) throw new AppError(404, SOCIAL_ERRORS.notFriends, MSG.friends.notFriends);
}
