import { settingDocs, type SettingDoc, type SettingMeta } from './config-fields.ts';
import { settingsShape } from './config-settings.ts';

/** The README's configuration table, written from the settings schema (`npm run config:docs`). */

export const CONFIG_TABLE_START =
  '<!-- config:start (npm run config:docs writes this table from config-settings.ts) -->';
export const CONFIG_TABLE_END = '<!-- config:end -->';

export interface ConfigRow extends SettingDoc {
  names: string[];
}

const isRowMember = (meta: SettingMeta): meta is { row: string } => 'row' in meta;

/** The table's rows: a variable with its own default and meaning starts one; `{ row }` variables join it. */
export function configRows(): ConfigRow[] {
  const rows = new Map<string, ConfigRow>();
  for (const [name, schema] of Object.entries(settingsShape)) {
    const meta = settingDocs.get(schema);
    if (!meta) throw new Error(`${name} has no documentation in config-settings.ts`);
    if (isRowMember(meta)) {
      const row = rows.get(meta.row);
      if (!row) throw new Error(`${name} joins the row of ${meta.row}, which comes later or does not exist`);
      row.names.push(name);
      continue;
    }
    rows.set(name, { names: [name], default: meta.default, meaning: meta.meaning });
    if (meta.then) {
      const pattern = { names: [meta.then.name], default: meta.then.default, meaning: meta.then.meaning };
      rows.set(meta.then.name, pattern);
    }
  }
  return [...rows.values()];
}

export function configTable(): string {
  const lines = ['| variable | default | meaning |', '| --- | --- | --- |'];
  for (const row of configRows()) {
    lines.push(`| ${row.names.map((n) => `\`${n}\``).join(', ')} | ${row.default} | ${row.meaning} |`);
  }
  return lines.join('\n');
}

/** The README with its table replaced by `table`; throws when the markers are missing. */
export function withConfigTable(readme: string, table = configTable()): string {
  const start = readme.indexOf(CONFIG_TABLE_START);
  const end = readme.indexOf(CONFIG_TABLE_END);
  if (start < 0 || end < start)
    throw new Error(`README.md needs the lines ${CONFIG_TABLE_START} and ${CONFIG_TABLE_END}`);
  return `${readme.slice(0, start + CONFIG_TABLE_START.length)}\n\n${table}\n\n${readme.slice(end)}`;
}
