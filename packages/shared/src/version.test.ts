import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { APP_VERSION } from './version.ts';

const root = (file: string) => new URL(`../../../${file}`, import.meta.url);

describe('the release version', () => {
  it('is the root package.json version, a semantic version, with its CHANGELOG entry', () => {
    const pkg = JSON.parse(readFileSync(root('package.json'), 'utf8')) as { version?: string };
    expect(APP_VERSION).toMatch(/^\d+\.\d+\.\d+$/);
    expect(pkg.version).toBe(APP_VERSION);
    const changelog = readFileSync(root('CHANGELOG.md'), 'utf8');
    expect(changelog).toMatch(
      new RegExp(`^## \\[${APP_VERSION.replace(/\./g, '\\.')}\\] - \\d{4}-\\d{2}-\\d{2}$`, 'm'),
    );
  });
});
