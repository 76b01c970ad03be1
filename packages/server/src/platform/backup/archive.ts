import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { pipeline, Readable } from 'node:stream';
import { createGunzip, createGzip } from 'node:zlib';
import { endOfArchive, fileHeader, padding, readTar, type TarEntrySink } from './tar.ts';

/**
 * A backup archive is a .tar.gz holding, in this order:
 *   secret.key        the key that decrypts sealed Canvas/Google tokens
 *   db.tar            the embedded database, as PGlite's dumpDataDir() writes it, or
 *   db.pgdump         a PostgreSQL database, as pg_dump --format=custom writes it (scheduled backups on PostgreSQL)
 *   files/objects/…   the stored files and their .meta.json, as under DATA_DIR/files
 *   manifest.json     (last, so it can list every entry's checksum) format, version, migration level, counts
 */
export const ARCHIVE_FORMAT = 'studybuddy-backup';
export const ARCHIVE_VERSION = 1;
export const MANIFEST = 'manifest.json';
export const DB_ENTRY = 'db.tar';
export const PG_ENTRY = 'db.pgdump';
export const SECRET_ENTRY = 'secret.key';
export const FILES_PREFIX = 'files/';

export interface MigrationLevel {
  /** Migrations applied to the database. */
  applied: number;
  /** Tag of the newest one (e.g. "0011_fair_jobs_stored_files"), when known. */
  latest: string | null;
}

export interface ManifestEntry {
  path: string;
  size: number;
  sha256: string;
}

export interface BackupManifest {
  format: typeof ARCHIVE_FORMAT;
  version: typeof ARCHIVE_VERSION;
  createdAt: string;
  /** 'server': dumped by the running server; 'offline': by the command while no server ran. */
  madeBy: 'server' | 'offline';
  database:
    | { kind: 'pglite'; entry: typeof DB_ENTRY; migrations: MigrationLevel }
    | { kind: 'postgres'; entry: typeof PG_ENTRY; migrations: MigrationLevel };
  files: { storage: 'fs' | 's3'; count: number; bytes: number };
  entries: ManifestEntry[];
}

export interface ArchiveSource {
  secretKey: string;
  /** PGlite's uncompressed dumpDataDir('none'), or pg_dump's custom format with `dbKind: 'postgres'`. */
  dbDump: Buffer;
  dbKind?: 'pglite' | 'postgres';
  migrations: MigrationLevel;
  madeBy: BackupManifest['madeBy'];
  storage: 'fs' | 's3';
  /** A folder laid out like DATA_DIR/files (objects/…); its tree goes under files/. */
  filesRoot?: string;
}

export class ArchiveError extends Error {}

/** Names a restore accepts: the fixed entries and relative paths under files/ (no '..', no absolute paths). */
export function isAllowedEntry(name: string): boolean {
  if (name === MANIFEST || name === DB_ENTRY || name === PG_ENTRY || name === SECRET_ENTRY) return true;
  if (!name.startsWith(FILES_PREFIX)) return false;
  const parts = name.slice(FILES_PREFIX.length).split('/');
  return parts.every((p) => p && p !== '.' && p !== '..' && !p.includes('\\') && !p.includes('\0'));
}

/** Relative paths of the files under `root`, sorted; temp files of half-finished writes are left out. */
export async function listFiles(root: string): Promise<string[]> {
  const out: string[] = [];
  const walk = async (dir: string, rel: string) => {
    const entries = await readdir(dir, { withFileTypes: true }).catch((err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT') return [];
      throw err;
    });
    for (const e of entries) {
      const childRel = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) await walk(path.join(dir, e.name), childRel);
      else if (e.isFile() && !e.name.endsWith('.tmp')) out.push(childRel);
    }
  };
  await walk(root, '');
  return out.sort();
}

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

async function* archiveBlocks(source: ArchiveSource): AsyncGenerator<Buffer> {
  const entries: ManifestEntry[] = [];
  function* whole(name: string, data: Buffer, mode?: number) {
    entries.push({ path: name, size: data.length, sha256: sha256(data) });
    yield fileHeader(name, data.length, { mode });
    yield data;
    yield padding(data.length);
  }
  yield* whole(SECRET_ENTRY, Buffer.from(`${source.secretKey}\n`, 'utf8'), 0o600);
  const postgres = source.dbKind === 'postgres';
  yield* whole(postgres ? PG_ENTRY : DB_ENTRY, source.dbDump);

  let count = 0;
  let bytes = 0;
  for (const rel of source.filesRoot ? await listFiles(source.filesRoot) : []) {
    const file = path.join(source.filesRoot!, ...rel.split('/'));
    const { size } = await stat(file);
    const name = FILES_PREFIX + rel;
    const hash = createHash('sha256');
    let read = 0;
    yield fileHeader(name, size);
    for await (const chunk of createReadStream(file)) {
      hash.update(chunk as Buffer);
      read += (chunk as Buffer).length;
      yield chunk as Buffer;
    }
    // Stored files are written once (temp file + rename); a size change means someone wrote in place.
    if (read !== size) throw new ArchiveError(`${rel} changed while it was being archived`);
    yield padding(size);
    entries.push({ path: name, size, sha256: hash.digest('hex') });
    if (!rel.endsWith('.meta.json')) {
      count++;
      bytes += size;
    }
  }

  const manifest: BackupManifest = {
    format: ARCHIVE_FORMAT,
    version: ARCHIVE_VERSION,
    createdAt: new Date().toISOString(),
    madeBy: source.madeBy,
    database: postgres
      ? { kind: 'postgres', entry: PG_ENTRY, migrations: source.migrations }
      : { kind: 'pglite', entry: DB_ENTRY, migrations: source.migrations },
    files: { storage: source.storage, count, bytes },
    entries,
  };
  const json = Buffer.from(JSON.stringify(manifest, null, 2), 'utf8');
  yield fileHeader(MANIFEST, json.length);
  yield json;
  yield padding(json.length);
  yield endOfArchive();
}

/** The .tar.gz bytes of a backup, as a stream. */
export function createArchive(source: ArchiveSource): Readable {
  const gzip = createGzip({ level: 6 });
  // An error while archiving destroys `gzip` with it, so its reader sees the failure instead of a short archive.
  pipeline(Readable.from(archiveBlocks(source)), gzip, () => undefined);
  return gzip;
}

function parseManifest(json: Buffer): BackupManifest {
  let m: BackupManifest;
  try {
    m = JSON.parse(json.toString('utf8')) as BackupManifest;
  } catch {
    throw new ArchiveError('the manifest is not valid JSON');
  }
  if (m?.format !== ARCHIVE_FORMAT) throw new ArchiveError('this is not a StudyBuddy backup (unknown manifest format)');
  if (m.version !== ARCHIVE_VERSION) {
    throw new ArchiveError(`backup format version ${String(m.version)} is not supported (this version reads 1)`);
  }
  if (!Array.isArray(m.entries)) throw new ArchiveError('the manifest lists no entries');
  return m;
}

/**
 * Reads a backup archive, checks it against its manifest (every entry listed, sizes and SHA-256 equal, nothing
 * extra) and, with `extractTo`, writes its entries there. Throws ArchiveError naming the first problem.
 */
export async function readArchive(archive: string, opts: { extractTo?: string } = {}): Promise<BackupManifest> {
  const seen = new Map<string, ManifestEntry>();
  let manifestJson: Buffer | undefined;
  const onFile = async (name: string): Promise<TarEntrySink> => {
    if (!isAllowedEntry(name)) throw new ArchiveError(`unexpected entry "${name}" in the archive`);
    if (seen.has(name) || (name === MANIFEST && manifestJson)) {
      throw new ArchiveError(`entry "${name}" appears twice in the archive`);
    }
    const hash = createHash('sha256');
    let written = 0;
    if (name === MANIFEST) {
      const parts: Buffer[] = [];
      return {
        write: (c) => void parts.push(c),
        end: () => void (manifestJson = Buffer.concat(parts)),
      };
    }
    let out: ReturnType<typeof createWriteStream> | undefined;
    if (opts.extractTo) {
      const target = path.join(opts.extractTo, ...name.split('/'));
      await mkdir(path.dirname(target), { recursive: true });
      out = createWriteStream(target, { mode: name === SECRET_ENTRY ? 0o600 : 0o644 });
    }
    return {
      async write(chunk) {
        hash.update(chunk);
        written += chunk.length;
        if (out && !out.write(chunk)) await new Promise<void>((resolve) => out!.once('drain', () => resolve()));
      },
      async end() {
        if (out)
          await new Promise<void>((resolve, reject) =>
            out!.end((err?: Error | null) => (err ? reject(err) : resolve())),
          );
        seen.set(name, { path: name, size: written, sha256: hash.digest('hex') });
      },
    };
  };

  const gunzip = createReadStream(archive).pipe(createGunzip());
  try {
    await readTar(gunzip, onFile);
  } catch (err) {
    gunzip.destroy();
    if (err instanceof ArchiveError) throw err;
    const reason = (err as NodeJS.ErrnoException).code?.startsWith('Z_')
      ? 'the archive is damaged (its gzip data does not check out)'
      : (err as Error).message;
    throw new ArchiveError(reason);
  }
  if (!manifestJson) throw new ArchiveError('the archive has no manifest.json (incomplete or not a backup)');
  const manifest = parseManifest(manifestJson);
  const listed = new Set<string>();
  for (const entry of manifest.entries) {
    listed.add(entry.path);
    const got = seen.get(entry.path);
    if (!got) throw new ArchiveError(`"${entry.path}" is listed in the manifest but missing from the archive`);
    if (got.size !== entry.size || got.sha256 !== entry.sha256) {
      throw new ArchiveError(`checksum mismatch for "${entry.path}": the archive is damaged`);
    }
  }
  for (const name of seen.keys()) {
    if (!listed.has(name)) throw new ArchiveError(`"${name}" is in the archive but not in its manifest`);
  }
  const db = manifest.database as BackupManifest['database'] | undefined;
  const known = (db?.kind === 'pglite' && db.entry === DB_ENTRY) || (db?.kind === 'postgres' && db.entry === PG_ENTRY);
  if (!known || !listed.has(db.entry) || !listed.has(SECRET_ENTRY)) {
    throw new ArchiveError('the archive lacks the database or the secret key');
  }
  return manifest;
}
