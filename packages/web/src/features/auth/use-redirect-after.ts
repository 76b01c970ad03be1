import { useEffect } from 'react';
import { useNavigate } from 'react-router';

/** Goes to `to` (with router state) `ms` after `when` becomes true (requirements §9 redirect delays: 2 or 3 s). */
export function useRedirectAfter(when: boolean, ms: number, to: string, state?: unknown) {
  const navigate = useNavigate();
  useEffect(() => {
    if (!when) return;
    const timer = setTimeout(() => void navigate(to, { replace: true, state }), ms);
    return () => clearTimeout(timer);
    // `state` is a fresh object each render; the redirect is decided by `when`.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [when, ms, to, navigate]);
}

/** What /login shows after a redirect to it. */
export type LoginNotice = 'verificationSent' | 'verified';
export interface LoginState {
  notice?: LoginNotice;
  /** Where a signed-out visitor was going (back there after log-in). */
  from?: string;
}
