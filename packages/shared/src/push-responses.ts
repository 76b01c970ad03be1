import { z } from 'zod';
import { pushSettingsSchema } from './push.ts';

/** What the push routes answer (serialised by these schemas). */
export const pushKeySchema = z.object({ publicKey: z.string() });
export type PushKey = z.infer<typeof pushKeySchema>;

/** GET /api/push/settings: the switches, the groups muted, and whether this browser's subscription is known. */
export const pushSettingsViewSchema = pushSettingsSchema.extend({ mutedGroups: z.array(z.string()) });
export type PushSettingsView = z.infer<typeof pushSettingsViewSchema>;

export const pushOkSchema = z.object({ ok: z.literal(true) });
