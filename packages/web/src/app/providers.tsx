import { lazy, Suspense, useSyncExternalStore, type ReactNode } from 'react';
import { localStorageColorSchemeManager, MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { FIRST_LOAD_LIMITS as LIMITS } from '@studybuddy/shared/limits/first-load';
import { getStyleNonce } from '../lib/csp-nonce.ts';
import { subscribeToastsWanted, toastsWanted } from '../ui/toasts-wanted.ts';
import { ThemeColorMeta } from './theme-color.tsx';
import { cssVariablesResolver, theme } from './theme.ts';

/** Light, Dark or System (the default), chosen in the account menu and kept by this browser, in step across its tabs. */
const colorSchemeManager = localStorageColorSchemeManager({ key: 'studybuddy-color-scheme' });

const Notifications = lazy(() => import('@mantine/notifications').then((m) => ({ default: m.Notifications })));

/**
 * Mantine's toasts, loaded when a signed-in page or the first toast needs them (the log-in page does not):
 * notifications.show() only needs the small store (in toast.ts's chunk), where a toast waits until this chunk is in.
 */
function Toasts() {
  const wanted = useSyncExternalStore(subscribeToastsWanted, toastsWanted);
  if (!wanted) return null;
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
