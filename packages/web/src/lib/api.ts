import type { ApiError } from '@studybuddy/shared/api-error';

/** A failed API call with the server's code and message. */
export class ApiRequestError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly field?: string,
  ) {
    super(message);
  }
}

/** Calls our JSON API on the same origin; throws ApiRequestError with the server's message on failure. */
export async function api<T>(path: string, init: { method?: string; body?: unknown } = {}): Promise<T> {
  let res: Response;
  try {
    res = await fetch(path, {
      method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
      credentials: 'same-origin',
      headers: init.body === undefined ? undefined : { 'Content-Type': 'application/json' },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });
  } catch {
    throw new ApiRequestError(0, 'network', 'Network error. Please check your connection and try again.');
  }
  const data: unknown = res.status === 204 ? null : await res.json().catch(() => null);
  if (!res.ok) {
    const err = (data as { error?: ApiError } | null)?.error;
    throw new ApiRequestError(
      res.status,
      err?.code ?? 'http_' + res.status,
      err?.message ?? res.statusText,
      err?.field,
    );
  }
  return data as T;
}
