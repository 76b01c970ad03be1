/** JSON values as the emulator sends them. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json | undefined };
export type JsonObject = { [key: string]: Json | undefined };

/** `Accept: application/json+canvas-string-ids`: every id and *_id becomes a string. */
export function stringifyIds(value: Json): Json {
  if (Array.isArray(value)) return value.map(stringifyIds);
  if (value && typeof value === 'object') {
    const out: JsonObject = {};
    for (const [k, v] of Object.entries(value)) {
      if (v === undefined) continue;
      out[k] = (k === 'id' || k.endsWith('_id')) && typeof v === 'number' ? String(v) : stringifyIds(v);
    }
    return out;
  }
  return value;
}
