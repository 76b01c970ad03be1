import { lazy, Suspense, useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { ActionIcon, Button, Kbd, Tooltip } from '@mantine/core';
import { Search } from 'lucide-react';
import { MSG } from '@studybuddy/shared/messages';
import {
  cancelSearchRequest,
  isSearchRequested,
  subscribeSearchShortcut,
  takeSearchRequest,
} from '../../lib/search-shortcut.ts';

// The dialog (and the results it draws) is its own chunk, fetched when the shell is idle or on first use.
const loadDialog = () => import('./search-dialog.tsx');
const SearchDialog = lazy(loadDialog);

const isMac = () => /Mac|iPhone|iPad/.test(navigator.userAgent);

/**
 * The shell's search: Ctrl+K (Cmd+K on a Mac) anywhere, even while typing a message (lib/search-shortcut.ts keeps a
 * press made before this code arrived, with what was typed after it), or the search button (the full-width one in
 * the sidebar, or an icon in the mobile header) opens the search dialog.
 */
export function SearchLauncher({ compact }: { compact: boolean }) {
  const [opened, setOpened] = useState(false);
  // The dialog is mounted (closed) once its chunk is in: when the shell is idle, or on first use.
  const [mounted, setMounted] = useState(false);
  // Where the focus was (the button, or the message being typed): Escape gives it back there.
  const returnTo = useRef<HTMLElement | null>(null);
  const open = () => {
    returnTo.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    if (mounted) return setOpened(true);
    setMounted(true);
    loadDialog().then(
      () => requestAnimationFrame(() => setOpened(true)),
      () => cancelSearchRequest(),
    );
  };
  // Ctrl+K, pressed now or before this shell was there: opens the dialog (already open: its box has the keys).
  const requested = useSyncExternalStore(subscribeSearchShortcut, isSearchRequested);
  useEffect(() => {
    if (!requested) return;
    if (opened) takeSearchRequest();
    else open();
    // Only a new request opens it.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [requested]);
  useEffect(() => {
    const idle = window.requestIdleCallback ?? ((fn: () => void) => window.setTimeout(fn, 2000));
    const handle = idle(() => void loadDialog().then(() => setMounted(true)));
    return () => (window.cancelIdleCallback ?? window.clearTimeout)(handle);
  }, []);
  const shortcut = isMac() ? '⌘ K' : 'Ctrl K';
  const trigger = compact ? (
    <Tooltip label={`${MSG.search.open} (${shortcut})`}>
      <ActionIcon
        variant="subtle"
        color="gray"
        size="lg"
        aria-label={MSG.search.open}
        aria-keyshortcuts="Control+K Meta+K"
        onClick={open}
      >
        <Search size={20} aria-hidden />
      </ActionIcon>
    </Tooltip>
  ) : (
    <Button
      variant="default"
      fullWidth
      justify="space-between"
      leftSection={<Search size={16} aria-hidden />}
      rightSection={<Kbd size="xs">{shortcut}</Kbd>}
      aria-keyshortcuts="Control+K Meta+K"
      onClick={open}
      fw={400}
    >
      {MSG.search.open}
    </Button>
  );
  return (
    <>
      {trigger}
      {mounted && (
        <Suspense fallback={null}>
          <SearchDialog
            opened={opened}
            onClose={(chosen) => {
              setOpened(false);
              const back = returnTo.current;
              if (!chosen && back) window.setTimeout(() => back.isConnected && back.focus({ preventScroll: true }));
            }}
          />
        </Suspense>
      )}
    </>
  );
}
