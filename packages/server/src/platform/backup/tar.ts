// A small POSIX tar (ustar + pax) writer and reader: regular files only, enough for backup archives.
const BLOCK = 512;
const MAX_OCTAL_SIZE = 0o77777777777;

function octal(value: number, width: number): string {
  return value.toString(8).padStart(width - 1, '0') + '\0';
}

function header(name: string, size: number, type: '0' | 'x', mtime: number, mode: number): Buffer {
  const h = Buffer.alloc(BLOCK);
  h.write(name, 0, 100, 'utf8');
  h.write(octal(mode, 8), 100, 'ascii');
  h.write(octal(0, 8), 108, 'ascii');
  h.write(octal(0, 8), 116, 'ascii');
  h.write(octal(size, 12), 124, 'ascii');
  h.write(octal(Math.floor(mtime / 1000), 12), 136, 'ascii');
  h.write('        ', 148, 'ascii');
  h.write(type, 156, 'ascii');
  h.write('ustar\0', 257, 'ascii');
  h.write('00', 263, 'ascii');
  let sum = 0;
  for (const byte of h) sum += byte;
  h.write(octal(sum, 7) + ' ', 148, 'ascii');
  return h;
}

/** A pax record `"<len> key=value\n"`, whose length counts its own digits. */
function paxRecord(key: string, value: string): string {
  const body = ` ${key}=${value}\n`;
  let len = Buffer.byteLength(body) + 1;
  while (String(len).length + Buffer.byteLength(body) !== len) len++;
  return `${len}${body}`;
}

export const padding = (size: number): Buffer => Buffer.alloc((BLOCK - (size % BLOCK)) % BLOCK);

/** The header block(s) of a regular file; long or non-ASCII names and huge sizes go in a pax header first. */
export function fileHeader(name: string, size: number, opts: { mtime?: number; mode?: number } = {}): Buffer {
  const { mtime = Date.now(), mode = 0o644 } = opts;
  const needsPax = Buffer.byteLength(name) > 100 || /[^\x20-\x7e]/.test(name) || size > MAX_OCTAL_SIZE;
  if (!needsPax) return header(name, size, '0', mtime, mode);
  let records = paxRecord('path', name);
  if (size > MAX_OCTAL_SIZE) records += paxRecord('size', String(size));
  const pax = Buffer.from(records, 'utf8');
  return Buffer.concat([
    header('PaxHeader', pax.length, 'x', mtime, 0o644),
    pax,
    padding(pax.length),
    header(name.slice(0, 100).replace(/[^\x20-\x7e]/g, '_'), Math.min(size, MAX_OCTAL_SIZE), '0', mtime, mode),
  ]);
}

/** The two zero blocks that end an archive. */
export const endOfArchive = (): Buffer => Buffer.alloc(BLOCK * 2);

export class TarError extends Error {}

export interface TarEntrySink {
  write(chunk: Buffer): Promise<void> | void;
  end(): Promise<void> | void;
}

function readString(block: Buffer, start: number, length: number): string {
  const raw = block.subarray(start, start + length);
  const nul = raw.indexOf(0);
  return raw.subarray(0, nul === -1 ? length : nul).toString('utf8');
}

function readOctal(block: Buffer, start: number, length: number): number {
  const text = readString(block, start, length).trim();
  if (!/^[0-7]*$/.test(text)) throw new TarError('not a tar archive (bad number in a header)');
  return text ? parseInt(text, 8) : 0;
}

function checkHeader(block: Buffer): void {
  const stored = readOctal(block, 148, 8);
  let sum = 0;
  for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 32 : block[i]!;
  if (sum !== stored) throw new TarError('not a tar archive (header checksum mismatch)');
}

function parsePax(data: Buffer): Record<string, string> {
  const out: Record<string, string> = {};
  let at = 0;
  while (at < data.length) {
    const space = data.indexOf(0x20, at);
    const len = Number(data.subarray(at, space).toString('ascii'));
    if (space === -1 || !Number.isInteger(len) || len <= 0) throw new TarError('not a tar archive (bad pax record)');
    const record = data.subarray(space + 1, at + len - 1).toString('utf8');
    const eq = record.indexOf('=');
    out[record.slice(0, eq)] = record.slice(eq + 1);
    at += len;
  }
  return out;
}

/**
 * Reads a tar stream: calls `onFile(name, size)` for each regular file and writes its bytes to the sink it
 * returns. Anything but regular files, directories and pax headers (links, devices) is refused.
 */
export async function readTar(
  source: AsyncIterable<Buffer>,
  onFile: (name: string, size: number) => Promise<TarEntrySink> | TarEntrySink,
): Promise<void> {
  let buffered: Buffer = Buffer.alloc(0);
  let pax: Record<string, string> = {};
  // What the bytes at the front of `buffered` are.
  let state: { kind: 'header' } | { kind: 'data'; left: number; pad: number; sink?: TarEntrySink; pax?: Buffer[] } = {
    kind: 'header',
  };
  let ended = false;

  for await (const chunk of source) {
    buffered = buffered.length ? Buffer.concat([buffered, chunk]) : chunk;
    while (!ended) {
      if (state.kind === 'header') {
        if (buffered.length < BLOCK) break;
        const block = buffered.subarray(0, BLOCK);
        buffered = buffered.subarray(BLOCK);
        if (block.every((b) => b === 0)) {
          ended = true;
          break;
        }
        checkHeader(block);
        const type = String.fromCharCode(block[156]!);
        const prefix = readString(block, 345, 155);
        const name = pax.path ?? (prefix ? `${prefix}/` : '') + readString(block, 0, 100);
        const size = pax.size !== undefined ? Number(pax.size) : readOctal(block, 124, 12);
        const pad = (BLOCK - (size % BLOCK)) % BLOCK;
        if (type === 'x') {
          state = { kind: 'data', left: size, pad, pax: [] };
        } else if (type === 'g' || type === '5') {
          state = { kind: 'data', left: size, pad };
          if (type === '5') pax = {};
        } else if (type === '0' || type === '\0') {
          pax = {};
          state = { kind: 'data', left: size, pad, sink: await onFile(name, size) };
        } else {
          throw new TarError(`unsupported tar entry "${name}" (type ${JSON.stringify(type)})`);
        }
      }
      if (state.kind === 'data') {
        if (state.left > 0) {
          if (!buffered.length) break;
          const part = buffered.subarray(0, Math.min(state.left, buffered.length));
          buffered = buffered.subarray(part.length);
          state.left -= part.length;
          if (state.sink) await state.sink.write(part);
          else state.pax?.push(part);
          if (state.left > 0) break;
        }
        if (buffered.length < state.pad) break;
        buffered = buffered.subarray(state.pad);
        if (state.sink) await state.sink.end();
        if (state.pax) pax = parsePax(Buffer.concat(state.pax));
        state = { kind: 'header' };
      }
    }
  }
  if (!ended) throw new TarError('the archive is truncated');
}
