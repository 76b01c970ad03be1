import { z } from 'zod';

/**
 * The building blocks of the settings schema (config-settings.ts): each reads one environment variable (a string or
 * nothing) and either gives its typed value or an issue whose message names what is wrong. The variable's name is put
 * in front by `parseSettings`, so a message reads `PORT must be …, got "abc"`.
 */

/** How a setting appears in the README's configuration table (`npm run config:docs`). */
export interface SettingDoc {
  /** The default as the table shows it. */
  default: string;
  meaning: string;
}
/** A variable shown in the row of another (the row's first variable carries its default and meaning). */
export interface SettingRowMember {
  row: string;
}
/** A row for a family of variables that has no fixed name (`CANVAS_URL_<KEY>`), shown after this one. */
export interface SettingPatternRow extends SettingDoc {
  name: string;
}
export type SettingMeta = (SettingDoc & { then?: SettingPatternRow }) | SettingRowMember;

export const settingDocs = z.registry<SettingMeta>();

export function doc<T extends z.ZodType>(schema: T, meta: SettingMeta): T {
  (schema as z.ZodType).register(settingDocs, meta);
  return schema;
}

/** An unset or blank variable is undefined; values are trimmed. */
const raw = z
  .string()
  .optional()
  .transform((v) => {
    const t = v?.trim();
    return t ? t : undefined;
  });

type Ctx = z.core.$RefinementCtx;
const fail = (ctx: Ctx, message: string) => {
  ctx.addIssue({ code: 'custom', message });
  return z.NEVER;
};

export function text(): z.ZodType<string | undefined>;
export function text(fallback: string): z.ZodType<string>;
export function text(fallback?: string): z.ZodType<unknown> {
  return raw.transform((v) => v ?? fallback);
}

/** A URL of a scheme the server speaks; a trailing slash is dropped. */
export function url(): z.ZodType<string | undefined>;
export function url(fallback: string): z.ZodType<string>;
export function url(fallback?: string): z.ZodType<unknown> {
  return raw.transform((given, ctx) => {
    const v = given ?? fallback;
    if (v === undefined) return undefined;
    try {
      const u = new URL(v);
      if (!/^(https?|postgres(ql)?|smtps?|s3):$/.test(u.protocol)) throw new Error('protocol');
    } catch {
      return fail(ctx, `must be a valid URL, got "${v}"`);
    }
    return v.replace(/\/$/, '');
  });
}

export function portNumber(): z.ZodType<number | undefined>;
export function portNumber(fallback: number): z.ZodType<number>;
export function portNumber(fallback?: number): z.ZodType<unknown> {
  return raw.transform((v, ctx) => {
    if (v === undefined) return fallback;
    const n = Number(v);
    if (!Number.isInteger(n) || n < 0 || n > 65535)
      return fail(ctx, `must be an integer between 0 and 65535, got "${v}"`);
    return n;
  });
}

export const flag = (fallback: boolean) =>
  raw.transform((v, ctx) => {
    if (v === undefined) return fallback;
    if (['1', 'true', 'yes'].includes(v.toLowerCase())) return true;
    if (['0', 'false', 'no'].includes(v.toLowerCase())) return false;
    return fail(ctx, `must be true or false, got "${v}"`);
  });

export const oneOf = <const T extends readonly [string, ...string[]]>(values: T, fallback: T[number]) =>
  raw.transform((v, ctx): T[number] => {
    const given = v ?? fallback;
    if ((values as readonly string[]).includes(given)) return given;
    return fail(ctx, `must be ${values.map((x) => `"${x}"`).join(' or ')}, got "${given}"`);
  });

/**
 * A number: positive (or non-negative with `zero`), an integer or not. The message says which, with `unit` after
 * (" of seconds").
 */
export const number = (fallback: number, opts: { zero?: boolean; integer?: boolean; unit?: string } = {}) =>
  raw.transform((v, ctx) => {
    if (v === undefined) return fallback;
    const n = Number(v);
    const ok = Number.isFinite(n) && (opts.zero ? n >= 0 : n > 0) && (!opts.integer || Number.isInteger(n));
    if (ok) return n;
    const what = `${opts.zero ? 'a non-negative' : 'a positive'} ${opts.integer ? 'integer' : 'number'}`;
    return fail(ctx, `must be ${what}${opts.unit ?? ''}, got "${v}"`);
  });

export const positiveInt = (fallback: number) => number(fallback, { integer: true });
export const seconds = (fallback: number, zero = false) => number(fallback, { zero, unit: ' of seconds' });

/** A comma-separated list, each entry trimmed (and lower-cased with `lower`), blanks left out; unset: `fallback`. */
export const list = (opts: { lower?: boolean; fallback?: string[] } = {}) =>
  raw.transform((v) =>
    v === undefined
      ? (opts.fallback ?? [])
      : v
          .split(',')
          .map((e) => (opts.lower ? e.trim().toLowerCase() : e.trim()))
          .filter(Boolean),
  );

export { raw as optionalText, fail as addIssue };

type Env = Record<string, string | undefined>;

/**
 * Parses `env` with a settings schema; the first problem is thrown as `makeError(message)`, the message starting with
 * the variable's name (issues of the whole set, such as a group missing a member, name theirs already).
 */
export function parseSettings<T extends z.ZodType>(
  schema: T,
  env: Env,
  makeError: (message: string) => Error,
): z.output<T> {
  const result = schema.safeParse(env);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const key = issue.path[0];
  const message = typeof key === 'string' && !issue.message.startsWith(key) ? `${key} ${issue.message}` : issue.message;
  throw makeError(message);
}
