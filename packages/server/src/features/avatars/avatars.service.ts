import { randomBytes } from 'node:crypto';
import { createAvatar } from '@dicebear/core';
import * as bottts from '@dicebear/bottts';
import { notFound } from '../../platform/errors.ts';

/** Seeds we render: URL-safe and short (random seeds of new profiles, user ids of seeded ones). */
export const AVATAR_SEED = /^[A-Za-z0-9_-]{1,64}$/;

/** Address of the generated robot avatar for a seed (served by avatars.routes.ts). */
export const avatarPath = (seed: string) => `/api/avatars/${seed}.svg`;

/** The default picture of a new profile: a robot avatar with a random seed (requirements §3). */
export const newAvatarPath = () => avatarPath(randomBytes(12).toString('base64url'));

/** DiceBear's robot style ('bottts'); the same seed always gives the same SVG. */
function renderAvatar(seed: string): string {
  return createAvatar(bottts, { seed }).toString();
}

/** The robot avatars: an image per seed, nothing stored. */
export function createAvatarsService() {
  return {
    /** The SVG of `<seed>.svg`; a name that is no seed of ours is not found. */
    image(file: string): string {
      const seed = /^(.+)\.svg$/.exec(file)?.[1];
      if (!seed || !AVATAR_SEED.test(seed)) throw notFound();
      return renderAvatar(seed);
    },
  };
}

export type AvatarsService = ReturnType<typeof createAvatarsService>;
