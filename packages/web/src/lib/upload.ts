import * as tus from 'tus-js-client';
import { FILES_API, uploadResponseSchema, type UploadedFile } from '@studybuddy/shared/files';
import { LIMITS } from '@studybuddy/shared/limits';
import { MSG } from '@studybuddy/shared/messages';

/**
 * Uploads a file to one of the server's upload targets (requirements §4 File storage uploads):
 * - up to 262144 bytes in one multipart request;
 * - above that through a tus resumable upload whose chunks start at 262144 bytes and double after each
 *   accepted chunk while staying under 33554432 bytes (back to the start size after a failure).
 * Both retry on network errors and on 408, 429 and 5xx with exponential back-off (the resumable upload also
 * re-synchronises its offset after a 409/423 conflict), for at most 600000 ms
 * of consecutive failures (120000 ms for the follow-up read of a finished upload); the task can be paused,
 * resumed and canceled and reports progress and its state.
 *
 * ```ts
 * const task = startUpload(blob, { target: 'profile-image', filename: 'me.jpg', onProgress: (p) => setPct(p) });
 * const file = await task.promise; // { url, path, name, size, contentType, md5Hash }
 * ```
 */
export type UploadState = 'running' | 'pausing' | 'paused' | 'canceling' | 'canceled' | 'success' | 'error';

/** The storage error codes of requirements §8 (plus invalid-argument for a refused file). */
export type UploadErrorCode =
  | 'unauthenticated'
  | 'quota-exceeded'
  | 'unauthorized'
  | 'object-not-found'
  | 'retry-limit-exceeded'
  | 'canceled'
  | 'invalid-argument'
  | 'unknown';

export class UploadError extends Error {
  constructor(
    readonly code: UploadErrorCode,
    message: string,
    readonly status = 0,
  ) {
    super(message);
  }
}

export interface UploadSnapshot {
  bytesTransferred: number;
  totalBytes: number;
  state: UploadState;
}

export interface UploadOptions {
  /** An upload target registered on the server, e.g. 'profile-image'. */
  target: string;
  /** The target's parameters (e.g. a chat id), sent as query parameters or tus metadata. */
  params?: Record<string, string>;
  filename?: string;
  onProgress?: (snapshot: UploadSnapshot) => void;
  /** Extra request headers (outside a browser, e.g. a cookie); browsers send the session cookie themselves. */
  headers?: Record<string, string>;
  /** Origin of the API when not the page's own (non-browser use). */
  baseUrl?: string;
}

export interface UploadTask {
  readonly state: UploadState;
  /** Resolves with the stored file; rejects with an UploadError. */
  readonly promise: Promise<UploadedFile>;
  pause(): boolean;
  resume(): boolean;
  cancel(): boolean;
}

const RETRY_STATUS = (status: number) =>
  status === 0 || status === 408 || status === 429 || (status >= 500 && status < 600);

/** A per-student quota's refusal (429 quota_exceeded): retrying soon cannot help, so its message is shown. */
const isQuotaRefusal = (status: number, body: string) => status === 429 && body.includes('"quota_exceeded"');

/** 1 s, 2 s, 4 s … capped at 64 s, plus up to 1 s of jitter. */
export function backoffDelay(attempt: number): number {
  return Math.min(1000 * 2 ** attempt, 64_000) + Math.floor(Math.random() * 1000);
}

/** The next tus chunk size after an accepted chunk: doubled while it stays under the maximum. */
export function nextChunkSize(current: number): number {
  return current * 2 < LIMITS.chunkMaxBytes ? current * 2 : current;
}

function errorFor(status: number, body: string, fallback: string): UploadError {
  let message = fallback;
  try {
    const parsed = JSON.parse(body) as { error?: { message?: string } };
    if (parsed.error?.message) message = parsed.error.message;
  } catch {
    // not our JSON error
  }
  const code: UploadErrorCode =
    status === 401
      ? 'unauthenticated'
      : status === 402 || status === 413 || isQuotaRefusal(status, body)
        ? 'quota-exceeded'
        : status === 403
          ? 'unauthorized'
          : status === 404 || status === 410
            ? 'object-not-found'
            : status >= 400 && status < 500
              ? 'invalid-argument'
              : 'unknown';
  return new UploadError(code, message, status);
}

/** Consecutive-failure window: starts at the first failure after progress, ends after `limitMs`. */
function retryWindow(limitMs: number) {
  let since: number | null = null;
  return {
    allows(): boolean {
      since ??= Date.now();
      return Date.now() - since < limitMs;
    },
    reset() {
      since = null;
    },
  };
}

function parseUploaded(body: string): UploadedFile | null {
  try {
    return uploadResponseSchema.parse(JSON.parse(body)).file;
  } catch {
    return null;
  }
}

abstract class BaseTask implements UploadTask {
  state: UploadState = 'running';
  readonly promise: Promise<UploadedFile>;
  protected resolve!: (file: UploadedFile) => void;
  protected reject!: (err: UploadError) => void;
  protected transferred = 0;

  constructor(
    protected readonly file: Blob,
    protected readonly options: UploadOptions,
  ) {
    this.promise = new Promise((resolve, reject) => {
      this.resolve = resolve;
      this.reject = reject;
    });
    // Callers that only watch progress must not see an unhandled rejection.
    this.promise.catch(() => undefined);
  }

  protected url(path: string): string {
    return (this.options.baseUrl ?? '') + path;
  }

  protected setState(state: UploadState, transferred = this.transferred) {
    this.state = state;
    this.transferred = transferred;
    this.options.onProgress?.({ bytesTransferred: transferred, totalBytes: this.file.size, state });
  }

  protected succeed(file: UploadedFile) {
    this.setState('success', this.file.size);
    this.resolve(file);
  }

  protected fail(err: UploadError) {
    this.setState(err.code === 'canceled' ? 'canceled' : 'error');
    this.reject(err);
  }

  abstract pause(): boolean;
  abstract resume(): boolean;
  abstract cancel(): boolean;
}

/** One multipart request (files up to the resumable threshold). Pausing aborts it; resuming sends it again. */
class DirectTask extends BaseTask {
  private xhr: XMLHttpRequest | null = null;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private attempt = 0;
  private readonly window = retryWindow(LIMITS.storageUploadRetryMs);

  constructor(file: Blob, options: UploadOptions) {
    super(file, options);
    this.send();
  }

  private send() {
    const query = new URLSearchParams(this.options.params ?? {}).toString();
    const xhr = new XMLHttpRequest();
    this.xhr = xhr;
    xhr.open('POST', this.url(FILES_API.direct(this.options.target) + (query ? `?${query}` : '')));
    for (const [k, v] of Object.entries(this.options.headers ?? {})) xhr.setRequestHeader(k, v);
    xhr.upload.onprogress = (e) => this.setState('running', e.loaded);
    xhr.onload = () => this.settle(xhr.status, xhr.responseText);
    xhr.onerror = () => this.settle(0, '');
    xhr.ontimeout = () => this.settle(408, '');
    const form = new FormData();
    form.append('file', this.file, this.options.filename ?? 'file');
    xhr.send(form);
  }

  private settle(status: number, body: string) {
    this.xhr = null;
    if (this.state !== 'running') return;
    const file = status >= 200 && status < 300 ? parseUploaded(body) : null;
    if (file) return this.succeed(file);
    if (RETRY_STATUS(status) && !isQuotaRefusal(status, body)) {
      if (!this.window.allows())
        return this.fail(new UploadError('retry-limit-exceeded', MSG.files.retryLimitExceeded));
      this.setState('running', 0);
      this.timer = setTimeout(() => this.send(), backoffDelay(this.attempt++));
      return;
    }
    this.fail(errorFor(status, body, MSG.api.internal));
  }

  private stop() {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const xhr = this.xhr;
    this.xhr = null;
    xhr?.abort();
  }

  pause() {
    if (this.state !== 'running') return false;
    this.setState('pausing');
    this.stop();
    this.setState('paused', 0);
    return true;
  }

  resume() {
    if (this.state !== 'paused') return false;
    this.setState('running', 0);
    this.window.reset();
    this.send();
    return true;
  }

  cancel() {
    if (this.state !== 'running' && this.state !== 'paused') return false;
    this.setState('canceling');
    this.stop();
    this.fail(new UploadError('canceled', MSG.files.canceled));
    return true;
  }
}

/** A tus upload: chunks double from 262144 bytes; a paused or cut upload resumes where the server stopped. */
class ResumableTask extends BaseTask {
  private readonly upload: tus.Upload;
  private readonly window = retryWindow(LIMITS.storageUploadRetryMs);
  private retryRefused = false;

  constructor(file: Blob, options: UploadOptions) {
    super(file, options);
    this.upload = new tus.Upload(file, {
      endpoint: this.url(FILES_API.resumable),
      chunkSize: LIMITS.chunkStartBytes,
      retryDelays: Array.from({ length: 200 }, (_, i) => backoffDelay(i)),
      storeFingerprintForResuming: false,
      removeFingerprintOnSuccess: true,
      headers: options.headers ?? {},
      metadata: {
        ...options.params,
        target: options.target,
        filename: options.filename ?? 'file',
        filetype: file.type,
      },
      onProgress: (sent) => {
        if (this.state === 'running') this.setState('running', sent);
      },
      onChunkComplete: () => {
        this.window.reset();
        this.upload.options.chunkSize = nextChunkSize(this.upload.options.chunkSize ?? LIMITS.chunkStartBytes);
      },
      onShouldRetry: (err) => {
        const status = err.originalResponse?.getStatus() ?? 0;
        if (isQuotaRefusal(status, err.originalResponse?.getBody() ?? '')) return false;
        // 409/423 are tus offset conflicts (e.g. a browser replayed a chunk after a dropped connection): the
        // retry asks the server for its offset (HEAD) and goes on from there.
        if (!(RETRY_STATUS(status) || status === 409 || status === 423) || this.state !== 'running') return false;
        this.upload.options.chunkSize = LIMITS.chunkStartBytes;
        if (this.window.allows()) return true;
        this.retryRefused = true;
        return false;
      },
      onSuccess: ({ lastResponse }) => void this.finish(lastResponse.getBody()),
      onError: (err) => {
        if (this.state !== 'running') return;
        if (this.retryRefused) return this.fail(new UploadError('retry-limit-exceeded', MSG.files.retryLimitExceeded));
        const res = (err as tus.DetailedError).originalResponse;
        this.fail(
          res ? errorFor(res.getStatus(), res.getBody(), err.message) : new UploadError('unknown', err.message),
        );
      },
    });
    this.upload.start();
  }

  /** The final PATCH answers with the stored file; if that answer was lost, ask for it. */
  private async finish(body: string) {
    const file = parseUploaded(body) ?? (await this.fetchResult());
    if (file) this.succeed(file);
  }

  private async fetchResult(): Promise<UploadedFile | null> {
    const window = retryWindow(LIMITS.storageOperationRetryMs);
    for (let attempt = 0; ; attempt++) {
      let status = 0;
      let text = '';
      try {
        const res = await fetch(this.url(FILES_API.resumableResult(this.upload.url ?? '')), {
          credentials: 'same-origin',
          headers: this.options.headers,
        });
        status = res.status;
        text = await res.text();
        if (res.ok) return parseUploaded(text);
      } catch {
        status = 0;
      }
      if (!RETRY_STATUS(status)) {
        this.fail(errorFor(status, text, MSG.api.internal));
        return null;
      }
      if (!window.allows()) {
        this.fail(new UploadError('retry-limit-exceeded', MSG.files.retryLimitExceeded));
        return null;
      }
      await new Promise((r) => setTimeout(r, backoffDelay(attempt)));
    }
  }

  pause() {
    if (this.state !== 'running') return false;
    this.setState('pausing');
    void this.upload.abort(false).finally(() => {
      if (this.state === 'pausing') this.setState('paused');
    });
    return true;
  }

  resume() {
    if (this.state !== 'paused') return false;
    this.window.reset();
    this.retryRefused = false;
    this.upload.options.chunkSize = LIMITS.chunkStartBytes;
    this.setState('running');
    this.upload.start();
    return true;
  }

  cancel() {
    if (this.state !== 'running' && this.state !== 'paused' && this.state !== 'pausing') return false;
    this.setState('canceling');
    // Terminates the upload on the server too (tus DELETE), so nothing stays staged.
    void this.upload
      .abort(true)
      .catch(() => undefined)
      .finally(() => this.fail(new UploadError('canceled', MSG.files.canceled)));
    return true;
  }
}

/** Starts uploading `file`: one request up to 262144 bytes, a resumable upload above. */
export function startUpload(file: Blob, options: UploadOptions): UploadTask {
  return file.size <= LIMITS.resumableThresholdBytes ? new DirectTask(file, options) : new ResumableTask(file, options);
}
