/**
 * The limits of requirements §9 that the log-in page's first load needs (the loading state, the toasts), part of
 * LIMITS. Their own module so that load does not carry every other limit.
 */
export const FIRST_LOAD_LIMITS = {
  toastMs: 3000,
  loadingSlowMs: 5000,
  loadingRetryMs: 15_000,
} as const;
