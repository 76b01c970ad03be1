/**
 * Ctrl+K (Cmd+K on a Mac), the shell's search shortcut, from the page's first paint: the search dialog is a chunk of
 * its own and the shell another, so a press made while either is still on its way is kept as a request, and what the
 * student types after it is kept too, until the search box takes the focus and takes the text (`take`).
 *
 * Armed only while a signed-in page is shown or on its way (the app arms it for a guarded address at start, the
 * guard afterwards): on the log-in page, or a profile still to complete, the keys go where they always went.
 */

/** Marks the search box: keys typed into it are its own. */
export const SEARCH_INPUT_ATTRIBUTE = 'data-search-input';

type Listener = () => void;

let armed = false;
let requested = false;
let typed = '';
const listeners = new Set<Listener>();

function notify(): void {
  for (const listener of listeners) listener();
}

function drop(): void {
  if (!requested && !typed) return;
  requested = false;
  typed = '';
  notify();
}

function isShortcut(e: KeyboardEvent): boolean {
  return (e.ctrlKey || e.metaKey) && !e.altKey && !e.shiftKey && (e.key.toLowerCase() === 'k' || e.code === 'KeyK');
}

function onKeyDown(e: KeyboardEvent): void {
  if (!armed || e.defaultPrevented) return;
  if (isShortcut(e)) {
    e.preventDefault();
    requested = true;
    typed = '';
    notify();
    return;
  }
  if (!requested || e.isComposing) return;
  // The search box has the focus: it takes its keys itself.
  if (e.target instanceof Element && e.target.closest(`[${SEARCH_INPUT_ATTRIBUTE}]`)) return;
  if (e.key === 'Escape') return drop();
  if (e.ctrlKey || e.metaKey || e.altKey) return;
  if (e.key === 'Backspace') typed = [...typed].slice(0, -1).join('');
  else if ([...e.key].length === 1) typed += e.key;
  // Enter would send a message being typed underneath, or press the focused button: it waits for the box too.
  else if (e.key !== 'Enter') return;
  e.preventDefault();
  e.stopPropagation();
}

let started = false;

/** Listens from now on (main.tsx, before the first render); `arm` says whether a press counts yet. */
export function startSearchShortcut(armNow: boolean): void {
  armed = armNow;
  if (started) return;
  started = true;
  // Capture: before any page's own handler (a message box's Enter, Mantine's hotkeys).
  window.addEventListener('keydown', onKeyDown, true);
}

/**
 * Whether a signed-in page is shown or on its way. Disarming drops a request and what was typed for it, unless
 * armed again at once (an effect cleaned up and run again in the same commit keeps it).
 */
export function armSearchShortcut(on: boolean): void {
  armed = on;
  if (!on) queueMicrotask(() => !armed && drop());
}

/** Whether Ctrl+K was pressed and the search box has not taken it yet (for useSyncExternalStore). */
export function isSearchRequested(): boolean {
  return requested;
}

export function subscribeSearchShortcut(listener: Listener): () => void {
  listeners.add(listener);
  return () => void listeners.delete(listener);
}

/** The search box has the focus: ends the request and returns what was typed for it (may be empty). */
export function takeSearchRequest(): string {
  const text = typed;
  drop();
  return text;
}

/** The search could not open (its code failed to load): the keys go where they always went. */
export function cancelSearchRequest(): void {
  drop();
}
