import { MSG } from '@studybuddy/shared/messages';
import { AppError } from '../../platform/errors.ts';
import {
  CanvasAuthError,
  CanvasError,
  CanvasForbiddenError,
  CanvasNetworkError,
  CanvasNotFoundError,
  CanvasServerError,
  CanvasThrottledError,
  CanvasTimeoutError,
} from './canvas-errors.ts';

/**
 * What the web app is told when Canvas fails. A dead token is a 401 (requirements §7 call 2: "401 means the token
 * expired"; its message contains 'token has expired'); 403, 404, 429, 500 and 503 have their own texts;
 * any other Canvas failure is 'Failed to fetch Canvas data: ...'.
 */
export function canvasAppError(err: unknown): unknown {
  const c = MSG.coursework.canvas;
  if (err instanceof CanvasAuthError) return new AppError(401, 'canvas_token_expired', MSG.coursework.tokenExpired);
  if (err instanceof CanvasForbiddenError) return new AppError(403, 'canvas_forbidden', c[403]);
  if (err instanceof CanvasNotFoundError) return new AppError(404, 'canvas_not_found', c[404]);
  if (err instanceof CanvasThrottledError) return new AppError(429, 'canvas_throttled', c[429]);
  if (err instanceof CanvasServerError) {
    return err.status === 503
      ? new AppError(503, 'canvas_unavailable', c[503])
      : new AppError(502, 'canvas_server_error', err.status === 500 ? c[500] : MSG.coursework.fetchFailed(err.message));
  }
  if (err instanceof CanvasTimeoutError)
    return new AppError(504, 'canvas_timeout', MSG.coursework.fetchFailed(MSG.coursework.timeout));
  if (err instanceof CanvasNetworkError) {
    return new AppError(502, 'canvas_unreachable', MSG.coursework.fetchFailed(MSG.coursework.unreachable));
  }
  if (err instanceof CanvasError) return new AppError(502, 'canvas_error', MSG.coursework.fetchFailed(err.message));
  // Not Canvas's failure (e.g. the database): it stays what it is.
  return err;
}
