import { BLOCK_ERRORS, type BlockedStudent } from '@studybuddy/shared/blocks';
import { MSG } from '@studybuddy/shared/messages';
import type { Db } from '../../db/connect.ts';
import { withTransaction } from '../../db/transaction.ts';
import { AppError, notFound } from '../../platform/errors.ts';
import { profiles } from '../profile/profiles.service.ts';
import * as repo from './blocks.repository.ts';
import { removeFriendship } from './friends.repository.ts';
import type { RequestNotices } from './request-notices.service.ts';
import { deletePendingBetween, lockPair } from './requests.repository.ts';

/**
 * Blocking (issue 24 point 1). The social feature owns the blocks; other features ask it here. A blocked pair
 * never meet: discovery and the search box leave each out for the other (`hiddenFrom`), no friend request goes
 * either way (the blocked student is answered as if it went), no friendship and so no one-to-one messages. The
 * blocker keeps their chat's history read-only (`hasBlocked`), and gets no unread count or push notice for the
 * blocked student's group messages (`sql.hasBlocked`, `sql.blockersOf`).
 */
export const blocking = {
  /** True when `blockerId` blocked `blockedId` (one direction). */
  hasBlocked: (db: Db, blockerId: string, blockedId: string): Promise<boolean> =>
    repo.hasBlocked(db, blockerId, blockedId),
  /** Everyone the user blocked or was blocked by: whom discovery and search leave out for them. */
  hiddenFrom: (db: Db, userId: string): Promise<string[]> => repo.hiddenFrom(db, userId),
  /** SQL other features embed where one statement must do the work (the chat batch write, unread counts). */
  sql: { hasBlocked: repo.hasBlockedSql, blockersOf: repo.blockersOfSql },
};

export type BlocksService = ReturnType<typeof createBlocksService>;

/** Blocking and unblocking (issue 24 point 1), and Profile → Blocked students. */
export function createBlocksService(deps: { db: Db; notices: RequestNotices }) {
  const { db, notices } = deps;
  return {
    /**
     * Blocks a student: refused for oneself (400); 404 for an id that is no student of the blocker's college
     * (nothing says whether it exists). In one transaction, under the pair's request lock: the block, the pending
     * requests between them withdrawn, the friendship ended. The blocked student's tabs hear only of what they
     * would see anyway (a friendship or a request gone); an ended friendship closes their chat at once. `created`
     * is false when the block existed already.
     */
    async block(blockerId: string, blockedId: string): Promise<{ created: boolean }> {
      if (blockedId === blockerId) {
        throw new AppError(400, BLOCK_ERRORS.selfBlock, MSG.block.notYourself, 'userId');
      }
      const [me, them] = await Promise.all([profiles.member(db, blockerId), profiles.member(db, blockedId)]);
      if (!me || !them || me.college !== them.college) throw notFound();
      const outcome = await withTransaction(db, async (tx) => {
        await lockPair(tx, blockerId, blockedId);
        const created = await repo.insertBlock(tx, blockerId, blockedId);
        const withdrawn = await deletePendingBetween(tx, blockerId, blockedId);
        const endedFriendship = (await removeFriendship(tx, blockerId, blockedId)) > 0;
        return { created, endedFriendship, withdrawn };
      });
      const theirsChanged = outcome.endedFriendship || outcome.withdrawn.length > 0;
      notices.changed(theirsChanged ? [blockerId, blockedId] : [blockerId]);
      if (outcome.endedFriendship) notices.chatClosed(blockerId, blockedId);
      return { created: outcome.created };
    },

    /** Unblocks: 404 when the student is not blocked. Nothing else comes back (no friendship, no request). */
    async unblock(blockerId: string, blockedId: string): Promise<void> {
      if (!(await repo.deleteBlock(db, blockerId, blockedId))) throw notFound();
      notices.changed([blockerId]);
    },

    /** Profile → Blocked students: newest block first; a student without a name shows as Anonymous. */
    async list(blockerId: string): Promise<BlockedStudent[]> {
      const rows = await repo.blockedBy(db, blockerId);
      const cards = await profiles.cards(
        db,
        rows.map((r) => r.id),
      );
      return rows.map((r) => {
        const card = cards.get(r.id);
        return {
          uid: r.id,
          name: card?.name.trim() || MSG.chat.anonymous,
          profilePicture: card?.profilePicture ?? '',
          blockedAt: r.createdAt.toISOString(),
        };
      });
    },
  };
}
