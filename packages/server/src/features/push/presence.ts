import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/connect.ts';
import { clearVisible, markVisible, refreshVisible } from './push.repository.ts';

/** A visible tab stays counted this long without a refresh (its instance refreshes it every third of it). */
export const VISIBLE_TTL_MS = 90_000;
/** One socket's visibility is written at most this often; changes in between wait (the last one wins). */
const MIN_WRITE_GAP_MS = 1_000;

interface Want {
  userId: string;
  visible: boolean;
}

/**
 * Which of this instance's sockets say their tab is visible, kept in the shared push_visible_tabs table so the
 * instance that sends a notice (any of them) sees every instance's tabs. A tab toggling fast costs at most one
 * write a second.
 */
export class Presence {
  private readonly visible = new Map<string, string>();
  private readonly wanted = new Map<string, Want>();
  private readonly writing = new Map<string, Promise<void>>();
  private readonly timer: ReturnType<typeof setInterval>;

  constructor(
    private readonly db: Db,
    private readonly log: FastifyBaseLogger,
  ) {
    this.timer = setInterval(() => void this.refresh(), VISIBLE_TTL_MS / 3);
    this.timer.unref();
  }

  /** Records a socket's visibility; resolves once it (or a later change) is stored. */
  set(userId: string, socketId: string, visible: boolean): Promise<void> {
    this.wanted.set(socketId, { userId, visible });
    let running = this.writing.get(socketId);
    if (!running) {
      running = this.drain(socketId).finally(() => this.writing.delete(socketId));
      this.writing.set(socketId, running);
    }
    return running;
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    await Promise.allSettled([...this.writing.values()]);
    await clearVisible(this.db, [...this.visible.keys()]).catch((err: unknown) => {
      this.log.warn({ err }, 'push: clearing visible tabs failed');
    });
  }

  private async drain(socketId: string): Promise<void> {
    for (let first = true; ; first = false) {
      const want = this.wanted.get(socketId);
      if (!want) return;
      if (!first) await new Promise((resolve) => setTimeout(resolve, MIN_WRITE_GAP_MS));
      const latest = this.wanted.get(socketId)!;
      this.wanted.delete(socketId);
      if (latest.visible === this.visible.has(socketId)) continue;
      try {
        if (latest.visible) {
          this.visible.set(socketId, latest.userId);
          await markVisible(this.db, socketId, latest.userId, VISIBLE_TTL_MS);
        } else {
          this.visible.delete(socketId);
          await clearVisible(this.db, [socketId]);
        }
      } catch (err) {
        this.log.warn({ err }, 'push: storing tab visibility failed');
      }
    }
  }

  private async refresh() {
    try {
      await refreshVisible(this.db, [...this.visible.keys()], VISIBLE_TTL_MS);
    } catch (err) {
      this.log.warn({ err }, 'push: refreshing visible tabs failed');
    }
  }
}
