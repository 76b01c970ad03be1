import { lazy, Suspense, useState, useSyncExternalStore, type ReactNode } from 'react';
import { localStorageColorSchemeManager, MantineProvider } from '@mantine/core';
import { useNotifications } from '@mantine/notifications';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { LIMITS } from '@studybuddy/shared/limits';
import { getStyleNonce } from '../lib/csp-nonce.ts';
import { ThemeColorMeta } from './theme-color.tsx';
import { cssVariablesResolver, theme } from './theme.ts';

/** Light, Dark or System (the default), chosen in the account menu and kept by this browser, in step across its tabs. */
const colorSchemeManager = localStorageColorSchemeManager({ key: 'studybuddy-color-scheme' });

const Notifications = lazy(() => import('@mantine/notifications').then((m) => ({ default: m.Notifications })));

let toastsWanted = false;
const wantListeners = new Set<() => void>();

/** The signed-in pages (guard.tsx) mount the toasts at once, so their first toast shows without waiting. */
export function wantToasts(): void {
  if (toastsWanted) return;
  toastsWanted = true;
  for (const listener of wantListeners) listener();
}

function subscribeWanted(listener: () => void) {
  wantListeners.add(listener);
  return () => void wantListeners.delete(listener);
}

/**
 * Mantine's toasts, loaded when a signed-in page or the first toast needs them (the log-in page does not):
 * notifications.show() only needs the small store, where a toast waits until this chunk is in.
 */
function Toasts() {
  const { notifications, queue } = useNotifications();
  const wanted = useSyncExternalStore(subscribeWanted, () => toastsWanted);
  const [needed, setNeeded] = useState(false);
  if (!needed && (wanted || notifications.length + queue.length > 0)) setNeeded(true);
  if (!needed) return null;
  return (
    <Suspense fallback={null}>
      <Notifications position="top-right" autoClose={LIMITS.toastMs} />
    </Suspense>
  );
}

const queryClient = new QueryClient({
  defaultOptions: { queries: { retry: 1, refetchOnWindowFocus: true, staleTime: 10_000 } },
});

export function Providers({ children }: { children: ReactNode }) {
  return (
    <MantineProvider
      theme={theme}
      cssVariablesResolver={cssVariablesResolver}
      colorSchemeManager={colorSchemeManager}
      defaultColorScheme="auto"
      getStyleNonce={getStyleNonce}
    >
      <ThemeColorMeta />
      <Toasts />
      <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
    </MantineProvider>
  );
}
