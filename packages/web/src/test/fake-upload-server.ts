import type { UploadedFile } from '@studybuddy/shared/files';

/** What the next request of a method meets: an HTTP status, no connection, or the connection cut mid-body. */
export type UploadOutcome =
  | 'ok'
  | number
  | 'network'
  /** The server keeps the first `kept` bytes of the body, then the connection drops. */
  | { cut: number }
  /** The server stores everything, but its answer is lost. */
  | 'lost';

export interface LoggedRequest {
  method: string;
  path: string;
  /** Upload-Offset of a PATCH. */
  offset?: number;
  bytes: number;
}

/**
 * The server's upload endpoints in memory (one multipart request, tus 1.0 for larger files), reached through a
 * stubbed XMLHttpRequest: install `server.Xhr` with `vi.stubGlobal('XMLHttpRequest', server.Xhr)`.
 */
export function fakeUploadServer() {
  const uploads = new Map<string, { length: number; data: Uint8Array; offset: number; metadata: string }>();
  const log: LoggedRequest[] = [];
  const planned: Record<string, UploadOutcome[]> = {};
  let terminated = 0;

  const stored = (name: string, size: number): UploadedFile => ({
    url: `/api/files/${name}`,
    path: name,
    name,
    size,
    contentType: 'application/octet-stream',
    md5Hash: 'md5',
  });

  interface Answer {
    status: number;
    headers?: Record<string, string>;
    body?: unknown;
  }

  function handle(method: string, path: string, headers: Record<string, string>, body: Uint8Array | null): Answer {
    if (method === 'POST' && path.startsWith('/api/uploads/')) {
      return { status: 201, body: { file: stored('direct', body?.length ?? 0) } };
    }
    if (method === 'POST' && path === '/api/resumable') {
      const id = `u${uploads.size + 1}`;
      const length = Number(headers['upload-length']);
      uploads.set(id, { length, data: new Uint8Array(length), offset: 0, metadata: headers['upload-metadata'] ?? '' });
      return { status: 201, headers: { Location: `http://localhost:3000/api/resumable/${id}` } };
    }
    const id = path.split('/')[3] ?? '';
    const upload = uploads.get(id);
    if (!upload) return { status: 404, body: { error: { code: 'not_found', message: 'No such upload' } } };
    if (method === 'HEAD') {
      return {
        status: 200,
        headers: { 'Upload-Offset': String(upload.offset), 'Upload-Length': String(upload.length) },
      };
    }
    if (method === 'DELETE') {
      uploads.delete(id);
      terminated += 1;
      return { status: 204 };
    }
    if (method === 'PATCH') {
      if (Number(headers['upload-offset']) !== upload.offset) return { status: 409 };
      const chunk = body ?? new Uint8Array();
      upload.data.set(chunk, upload.offset);
      upload.offset += chunk.length;
      const done = upload.offset === upload.length;
      return {
        status: done ? 200 : 204,
        headers: { 'Upload-Offset': String(upload.offset) },
        body: done ? { file: stored(id, upload.length) } : undefined,
      };
    }
    return { status: 405 };
  }

  class Xhr {
    status = 0;
    responseText = '';
    readonly upload: { onprogress: ((e: { lengthComputable: boolean; loaded: number }) => void) | null } = {
      onprogress: null,
    };
    onload: (() => void) | null = null;
    onerror: ((e: unknown) => void) | null = null;
    ontimeout: (() => void) | null = null;
    private method = 'GET';
    private path = '/';
    private readonly headers: Record<string, string> = {};
    private responseHeaders: Record<string, string> = {};
    private aborted = false;

    open(method: string, url: string) {
      this.method = method.toUpperCase();
      this.path = new URL(url, 'http://localhost:3000').pathname;
    }

    setRequestHeader(name: string, value: string) {
      this.headers[name.toLowerCase()] = value;
    }

    getResponseHeader(name: string): string | null {
      const key = Object.keys(this.responseHeaders).find((k) => k.toLowerCase() === name.toLowerCase());
      return key === undefined ? null : this.responseHeaders[key]!;
    }

    abort() {
      this.aborted = true;
    }

    send(body: Blob | FormData | null = null) {
      void this.deliver(body);
    }

    private async deliver(raw: Blob | FormData | null) {
      const blob = raw instanceof FormData ? (raw.get('file') as Blob) : raw;
      let bytes = blob ? new Uint8Array(await blob.arrayBuffer()) : null;
      await new Promise((r) => setTimeout(r, 1));
      if (this.aborted) return;
      const outcome = planned[this.method]?.shift();
      if (outcome && typeof outcome === 'object' && bytes) bytes = bytes.slice(0, outcome.cut);
      const offset = this.headers['upload-offset'];
      log.push({
        method: this.method,
        path: this.path,
        offset: offset === undefined ? undefined : Number(offset),
        bytes: bytes?.length ?? 0,
      });
      if (outcome === 'network') return this.onerror?.(new Event('error'));
      if (typeof outcome === 'number') {
        this.status = outcome;
        this.responseText = JSON.stringify({
          error: { code: outcome === 429 ? 'quota_exceeded' : 'refused', message: `refused (${outcome})` },
        });
        return this.onload?.();
      }
      const answer = handle(this.method, this.path, this.headers, bytes);
      if (outcome === 'lost' || (outcome && typeof outcome === 'object')) return this.onerror?.(new Event('error'));
      if (bytes) this.upload.onprogress?.({ lengthComputable: true, loaded: bytes.length });
      this.status = answer.status;
      this.responseHeaders = answer.headers ?? {};
      this.responseText = answer.body === undefined ? '' : JSON.stringify(answer.body);
      this.onload?.();
    }
  }

  return {
    Xhr,
    log,
    /** The bytes the server holds for an upload. */
    data: (id: string) => uploads.get(id)?.data.slice(0, uploads.get(id)!.offset),
    upload: (id: string) => uploads.get(id),
    terminated: () => terminated,
    /** Results of finished uploads, for `GET …/result`. */
    result: (id: string): UploadedFile | null => {
      const u = uploads.get(id);
      return u && u.offset === u.length ? stored(id, u.length) : null;
    },
    failNext(method: string, ...outcomes: UploadOutcome[]) {
      (planned[method] ??= []).push(...outcomes);
    },
  };
}
