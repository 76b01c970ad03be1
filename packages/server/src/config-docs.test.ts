import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CONFIG_TABLE_END, CONFIG_TABLE_START, configRows, configTable, withConfigTable } from './config-docs.ts';
import { settingsShape } from './config-settings.ts';

const readme = readFileSync(new URL('../../../README.md', import.meta.url), 'utf8');
const section = readme.slice(
  readme.indexOf(CONFIG_TABLE_START) + CONFIG_TABLE_START.length,
  readme.indexOf(CONFIG_TABLE_END),
);

describe("the README's configuration table", () => {
  it('is the one the settings schema prints (npm run config:docs)', () => {
    expect(section.trim()).toBe(configTable());
    expect(withConfigTable(readme)).toBe(readme);
  });

  it('names every variable the schema reads, once', () => {
    const named = configRows().flatMap((r) => r.names);
    expect(named.filter((n) => !n.includes('<'))).toEqual(Object.keys(settingsShape));
  });

  it('shows the defaults the schema applies', () => {
    const checked: string[] = [];
    for (const row of configRows()) {
      const shown = row.default.split(', ');
      if (row.names.length > 1 && shown.length !== row.names.length) continue;
      row.names.forEach((name, i) => {
        const literal = /^`([^`$]*)`$/.exec(shown[row.names.length > 1 ? i : 0] ?? '')?.[1];
        const schema = settingsShape[name as keyof typeof settingsShape];
        if (literal === undefined || !schema) return;
        const applied = schema.parse(undefined);
        expect(String(applied), name).toBe(literal);
        checked.push(name);
      });
    }
    expect(checked).toEqual(expect.arrayContaining(['PORT', 'S3_REGION', 'QUOTA_STORAGE_MB', 'HEADERS_TIMEOUT']));
    expect(checked).toHaveLength(new Set(checked).size);
  });

  it('fails when a setting changes without the README', () => {
    const drifted = readme.replace('| `PORT` | `3000` |', '| `PORT` | `8080` |');
    expect(withConfigTable(drifted)).not.toBe(drifted);
  });
});
