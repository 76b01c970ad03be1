/** Typed failures of the Canvas client (see shared/canvas-api.md §8, §9). */
export type CanvasErrorKind =
  | 'auth'
  | 'forbidden'
  | 'not_found'
  | 'throttled'
  | 'server'
  | 'timeout'
  | 'network'
  | 'http';

export class CanvasError extends Error {
  constructor(
    readonly kind: CanvasErrorKind,
    /** Canvas's HTTP status, when it answered. */
    readonly status: number | null,
    message: string,
  ) {
    super(message);
  }
}

/** 401 with WWW-Authenticate: the token is invalid, expired or revoked. */
export class CanvasAuthError extends CanvasError {
  constructor(message: string) {
    super('auth', 401, message);
  }
}

/** 403, or the legacy 401 without WWW-Authenticate: the token may not see this. */
export class CanvasForbiddenError extends CanvasError {
  constructor(status: number, message: string) {
    super('forbidden', status, message);
  }
}

/** 404, including a course tab hidden from students ("That page has been disabled for this course"). */
export class CanvasNotFoundError extends CanvasError {
  constructor(
    message: string,
    readonly tabDisabled = false,
  ) {
    super('not_found', 404, message);
  }
}

/** Still throttled (429, or 403 "Rate Limit Exceeded") after every retry. */
export class CanvasThrottledError extends CanvasError {
  constructor(status: number) {
    super('throttled', status, 'Canvas rate limit exceeded');
  }
}

/** 5xx after every retry. */
export class CanvasServerError extends CanvasError {
  constructor(status: number) {
    super('server', status, `Canvas answered ${status}`);
  }
}

export class CanvasTimeoutError extends CanvasError {
  constructor() {
    super('timeout', null, 'Canvas did not answer in time');
  }
}

export class CanvasNetworkError extends CanvasError {
  constructor(detail: string) {
    super('network', null, `Canvas could not be reached: ${detail}`);
  }
}

/** Per-type failures that mean "skip this type for this course" rather than "fail the whole load". */
export const isSkippable = (err: unknown): err is CanvasForbiddenError | CanvasNotFoundError =>
  err instanceof CanvasForbiddenError || err instanceof CanvasNotFoundError;
