import { randomUUID } from 'node:crypto';
import { BLOCK_ERRORS } from '@studybuddy/shared/blocks';
import { MSG } from '@studybuddy/shared/messages';
import {
  SOCIAL_ERRORS,
  type IncomingRequest,
  type NotificationBadge,
  type SendRequestResult,
} from '@studybuddy/shared/social';
import type { Db } from '../../db/connect.ts';
import type { Quota, QuotaRule } from '../../platform/quota.ts';
import { AppError, forbidden } from '../../platform/errors.ts';
import { profiles, type ProfileCard } from '../profile/profiles.service.ts';
import { hasBlocked } from './blocks.repository.ts';
import { addFriendship, areFriends } from './friends.repository.ts';
import {
  deletePending,
  findPending,
  findRequest,
  insertPending,
  lockPair,
  markAccepted,
  markDeclined,
  type FriendRequestRow,
  type IncomingRow,
  countIncoming,
  listIncoming,
  markAllViewed,
} from './requests.repository.ts';
import type { Member, MembersService } from './members.service.ts';
import type { RequestNotices } from './request-notices.service.ts';
import { userOfUnsubscribeToken } from './request-mail.ts';
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

/** The notifications page's requests, from students with a profile. */
function toIncoming(rows: IncomingRow[], cards: Map<string, ProfileCard>): IncomingRequest[] {
  return rows.flatMap((r) => {
    const from = cards.get(r.fromUserId);
    if (!from) return [];
    const sender = { uid: r.fromUserId, name: from.name, profilePicture: from.profilePicture };
    return [{ id: r.id, from: sender, viewed: r.viewed, timestamp: r.createdAt.toISOString() }];
  });
}

/** What a send answers; `created` when it stored a new request (201), else the two became friends (200). */
export type SendOutcome = SendRequestResult & { created: boolean };

export interface RequestsDeps {
  db: Db;
  members: MembersService;
  notices: RequestNotices;
  quota: Quota;
  /** QUOTA_FRIEND_REQUESTS_PER_DAY as a quota rule. */
  perDay: QuotaRule;
  secretKey: string;
}

export type RequestsService = ReturnType<typeof createRequestsService>;

/** Friend requests (requirements §4) and the notifications page: the rules, the quota, and whom each change tells. */
export function createRequestsService(deps: RequestsDeps) {
  const { db, members, notices, quota, perDay } = deps;

  /** Finds a request the student may answer (`side`: they are its addressee or its sender); 404 / 403 otherwise. */
  async function ownRequest(requestId: string, userId: string, side: 'toUserId' | 'fromUserId') {
    const request = await findRequest(db, requestId);
    if (!request) throw requestNotFound();
    if (request[side] !== userId) throw forbidden();
    return request;
  }

  /**
   * The rules of a send: refused to oneself, to another college, to a friend, and while a pending request from the
   * same sender to the same recipient exists. When the recipient has already asked the sender, the two become
   * friends. Between a blocked pair (issue 24) no request goes: the blocker is told to unblock first; the blocked
   * student gets the ordinary answer of a sent request (`unseen`), and nothing is stored.
   */
  async function store(me: Member, toUserId: string): Promise<SendRequestResult & { unseen?: true }> {
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

  return {
    /**
     * Send (requirements §4), counted against QUOTA_FRIEND_REQUESTS_PER_DAY (a refused request is given back). The
     * recipient hears of it (tabs, e-mail, push); sending back to someone who asked first accepts theirs. Nothing
     * reaches a recipient who blocked the sender.
     */
    async send(userId: string, toUserId: string): Promise<SendOutcome> {
      const me = await members.require(userId);
      const quotaKey = `friend-requests:${me.id}`;
      await quota.consume(quotaKey, perDay);
      const { unseen, ...result } = await store(me, toUserId).catch(async (err: unknown) => {
        await quota.refund(quotaKey);
        throw err;
      });
      if (unseen) return { ...result, created: true };
      notices.changed([me.id, toUserId], result.requestId);
      if (result.outcome === 'sent') notices.sent(me, toUserId, result.requestId);
      else notices.accepted(me, toUserId);
      return { ...result, created: result.outcome === 'sent' };
    },

    /** Accept (requirements §4): only the addressee; status accepted, acceptedAt, both connections, one transaction. */
    async accept(userId: string, requestId: string): Promise<{ friendId: string }> {
      const me = await members.require(userId);
      const request = await ownRequest(requestId, me.id, 'toUserId');
      const result = await inTransaction(db, async (tx) => {
        await lockPair(tx, request.fromUserId, request.toUserId);
        const fresh = await findRequest(tx, requestId);
        if (!fresh || fresh.status === 'declined') throw requestNotFound();
        if (fresh.status === 'pending') await acceptLocked(tx, fresh);
        return { friendId: fresh.fromUserId };
      });
      notices.changed([me.id, result.friendId], requestId);
      notices.accepted(me, result.friendId);
      return result;
    },

    /** Decline: only the addressee, only while pending. */
    async decline(userId: string, requestId: string): Promise<void> {
      const me = await members.require(userId);
      const request = await ownRequest(requestId, me.id, 'toUserId');
      await inTransaction(db, async (tx) => {
        await lockPair(tx, request.fromUserId, request.toUserId);
        if (!(await markDeclined(tx, requestId))) throw requestNotFound();
      });
      notices.changed([me.id, request.fromUserId], requestId);
    },

    /** Unsend: only the sender; the pending request is deleted. */
    async unsend(userId: string, requestId: string): Promise<void> {
      const me = await members.require(userId);
      const request = await ownRequest(requestId, me.id, 'fromUserId');
      await inTransaction(db, async (tx) => {
        await lockPair(tx, request.fromUserId, request.toUserId);
        if (!(await deletePending(tx, requestId))) throw requestNotFound();
      });
      notices.changed([me.id, request.toUserId], requestId);
    },

    /** Pending requests to the student (requirements §6: addressed to self only), from students with a profile. */
    async incoming(userId: string): Promise<IncomingRequest[]> {
      const me = await members.require(userId);
      const rows = await listIncoming(db, me.id);
      return toIncoming(
        rows,
        await profiles.cards(
          db,
          rows.map((r) => r.fromUserId),
        ),
      );
    },

    /** Marks the pending requests viewed; the student's tabs hear of it when anything changed. */
    async markViewed(userId: string): Promise<number> {
      const me = await members.require(userId);
      const updated = await markAllViewed(db, me.id);
      if (updated) notices.changed([me.id]);
      return updated;
    },

    async badge(userId: string): Promise<NotificationBadge> {
      const me = await members.require(userId);
      const { pending, unviewed } = await countIncoming(db, me.id);
      return { pending, unviewed: unviewed > 0 };
    },

    /** The friend-request e-mail's one-click unsubscribe: false for a token not made with this server's key. */
    async unsubscribe(token: unknown): Promise<boolean> {
      const userId = typeof token === 'string' ? userOfUnsubscribeToken(deps.secretKey, token) : null;
      return userId !== null && (await profiles.disableNotifications(db, userId));
    },
  };
}
