import { createHmac, timingSafeEqual } from 'node:crypto';
import { ROUTES } from '@studybuddy/shared/routes';
import type { Db } from '../../db/connect.ts';
import type { AppContext } from '../../platform/context.ts';
import type { MailMessage } from '../../platform/mail.ts';
import { profiles } from '../profile/profiles.service.ts';
import { claimMailSlot } from './request-mail.repository.ts';

/**
 * E-mail notice of a new friend request (new in this version, not in requirements §4): sent when the recipient's
 * emailNotificationsEnabled is on, at most once a day per sender and recipient, with a one-click unsubscribe link.
 */

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const mac = (secretKey: string, userId: string) =>
  createHmac('sha256', secretKey).update(`unsubscribe-friend-requests:${userId}`).digest('base64url');

export function unsubscribeToken(secretKey: string, userId: string): string {
  return `${Buffer.from(userId).toString('base64url')}.${mac(secretKey, userId)}`;
}

/** The user id a token was made for, or null when it was not made with this key. */
export function userOfUnsubscribeToken(secretKey: string, token: string): string | null {
  const [idPart, sig] = token.split('.');
  if (!idPart || !sig) return null;
  const userId = Buffer.from(idPart, 'base64url').toString('utf8');
  const expected = Buffer.from(mac(secretKey, userId));
  const given = Buffer.from(sig);
  return given.length === expected.length && timingSafeEqual(given, expected) ? userId : null;
}

export function friendRequestMail(publicUrl: string, to: string, senderName: string, token: string): MailMessage {
  const notifications = new URL(ROUTES.notifications, publicUrl).toString();
  const unsubscribe = new URL(`/api/social/unsubscribe?token=${encodeURIComponent(token)}`, publicUrl).toString();
  const intro = `${senderName} sent you a friend request on StudyBuddy.`;
  return {
    to,
    subject: `${senderName} sent you a friend request`,
    text:
      `Hello,\n\n${intro}\n\nSee it in your notifications:\n${notifications}\n\n` +
      `Stop these emails with one click:\n${unsubscribe}\n\n— StudyBuddy\n`,
    html:
      `<p>Hello,</p><p>${escapeHtml(intro)}</p>` +
      `<p><a href="${escapeHtml(notifications)}">See your notifications</a></p>` +
      `<p style="color:#555;font-size:12px"><a href="${escapeHtml(unsubscribe)}">Stop friend request emails</a></p>` +
      `<p>— StudyBuddy</p>`,
  };
}

/** One-click unsubscribe: the profile owner turns the student's e-mail notices off (false: no such profile). */
export const disableRequestMails = (db: Db, userId: string) => profiles.disableNotifications(db, userId);

/** Sends the notice when the recipient wants it; never throws (the request itself already succeeded). */
export async function noticeFriendRequest(ctx: AppContext, fromUserId: string, toUserId: string): Promise<void> {
  try {
    const [recipient, sender] = await Promise.all([
      profiles.mailContact(ctx.db, toUserId),
      profiles.member(ctx.db, fromUserId),
    ]);
    if (!recipient?.notify || !sender) return;
    const senderName = sender.name;
    if (!(await claimMailSlot(ctx.db, fromUserId, toUserId))) return;
    const token = unsubscribeToken(ctx.config.secretKey, toUserId);
    await ctx.mailer.send(friendRequestMail(ctx.config.publicUrl, recipient.email, senderName, token));
  } catch (err) {
    ctx.log.error({ err, fromUserId, toUserId }, 'friend request e-mail failed');
  }
}
