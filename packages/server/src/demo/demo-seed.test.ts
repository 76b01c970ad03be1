import { describe, expect, it } from 'vitest';
import { profiles, users } from '../db/schema.ts';
import { createTestApp } from '../test/test-app.ts';
import { DEMO_USERS } from './demo-data.ts';
import { seedDemo } from './demo-seed.ts';

describe('demo data', () => {
  it('seeds every demo student once with a complete profile', async () => {
    const t = await createTestApp();
    try {
      await seedDemo(t.app.ctx, t.app.log);
      await seedDemo(t.app.ctx, t.app.log);
      const rows = await t.app.ctx.db.select().from(users);
      expect(rows.map((r) => r.email).sort()).toEqual(DEMO_USERS.map((u) => u.email).sort());
      const profileRows = await t.app.ctx.db.select().from(profiles);
      expect(profileRows.every((p) => p.name && p.major && p.year && p.hasCustomProfilePicture)).toBe(true);
    } finally {
      await t.close();
    }
  });
});
