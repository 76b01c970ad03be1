import { z } from 'zod';

/** Web Push (issue 17): a subscription per browser, stored per student; per-student switches; muted groups. */

export const PUSH_LIMITS = {
  endpointMax: 2048,
  /** base64url of an uncompressed P-256 point (65 bytes) is 87 characters, of the 16-byte auth secret 22. */
  keyMax: 200,
  /** A push service keeps an undelivered notice this long (the TTL header), in seconds. */
  ttlSeconds: 24 * 60 * 60,
  /** A push service that has not answered by then is given up for this notice. */
  sendTimeoutMs: 10_000,
} as const;

const base64url = z
  .string()
  .min(1)
  .max(PUSH_LIMITS.keyMax)
  .regex(/^[\w-]+=*$/, 'Expected a base64url string.');

/** What PushSubscription.toJSON() gives. */
export const pushSubscriptionSchema = z.object({
  endpoint: z.string().max(PUSH_LIMITS.endpointMax).url(),
  expirationTime: z.number().nullable().optional(),
  keys: z.object({ p256dh: base64url, auth: base64url }),
});
export type PushSubscriptionInput = z.infer<typeof pushSubscriptionSchema>;

export const pushUnsubscribeSchema = z.object({ endpoint: z.string().max(PUSH_LIMITS.endpointMax).url() });

export const pushSettingsSchema = z.object({
  /** New chat and group messages (only while none of the student's tabs is visible). */
  messages: z.boolean(),
  /** Friend requests received and accepted. */
  friendRequests: z.boolean(),
});
export type PushSettings = z.infer<typeof pushSettingsSchema>;

export const groupMuteSchema = z.object({ muted: z.boolean() });
export const groupIdParamSchema = z.object({ id: z.string().min(1).max(200) });

export type { PushKey, PushSettingsView } from './push-responses.ts';
