import { perMinute } from '../../platform/rate-limit-presets.ts';

/**
 * The accounts feature's named per-student rate limits. Guessing the current password with a stolen session
 * (changing the password, deleting the account) is held to a few tries a minute.
 */
export const accountLimits = (enabled: boolean) => ({ passwordGuesses: perMinute(enabled, 10) });
