import { MSG } from '@studybuddy/shared/messages';
import { ROUTES } from '@studybuddy/shared/routes';
import type { AppContext } from '../../platform/context.ts';
import { claimReminders, noGroups } from './flashcards.repository.ts';

/** Students reminded per run at most (the next run, a few minutes on, takes the rest). */
const BATCH = 500;

/**
 * The daily reminder (a setting, on by default): once per UTC day, a student with cards due gets a push notice
 * (when none of their tabs is visible; the open app shows the due count and its own reminder). Every instance runs
 * it; claiming the day in the database sends each reminder once.
 */
export async function sendReminders(ctx: AppContext, now: Date): Promise<{ userId: string; due: number }[]> {
  const rule = ctx.registry.conversationKinds.get('group');
  const today = now.toISOString().slice(0, 10);
  const claimed = await claimReminders(ctx.db, today, now, (userId) => rule?.sql.idsOf(userId) ?? noGroups(), BATCH);
  for (const { userId, due } of claimed) {
    ctx.registry.push.reminder([userId], {
      title: MSG.flashcards.reminderTitle,
      body: MSG.flashcards.reminderBody(due),
      url: ROUTES.flashcards,
      tag: 'flashcards:due',
    });
  }
  return claimed;
}

/** Runs `sendReminders` every `everyMs` (unref'd); the returned function stops it. */
export function startReminders(ctx: AppContext, everyMs: number): () => void {
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    sendReminders(ctx, new Date())
      .catch((err: unknown) => ctx.log.warn({ err }, 'flashcard reminders failed'))
      .finally(() => (running = false));
  }, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
