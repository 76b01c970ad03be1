import { createHmac, timingSafeEqual } from 'node:crypto';
import { ROUTES } from '@studybuddy/shared/routes';
import type { MailMessage } from '../../platform/mail.ts';

/** The e-mail notice of a new friend request and its one-click unsubscribe token (sent by request-notices.service.ts). */

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
