import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import './app/color-scheme.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { Providers } from './app/providers.tsx';
import { AppRouter, isGuardedPath } from './app/router.tsx';
import { startSearchShortcut } from './lib/search-shortcut.ts';

// Ctrl+K belongs to the shell from the first paint, before the shell's own code has arrived.
startSearchShortcut(isGuardedPath(location.pathname));

// The service worker (src/sw.ts): the app installs, starts offline, and shows push notices.
if (import.meta.env.PROD && 'serviceWorker' in navigator) {
  addEventListener('load', () => void navigator.serviceWorker.register('/sw.js').catch(() => undefined));
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <Providers>
      <AppRouter />
    </Providers>
  </StrictMode>,
);
