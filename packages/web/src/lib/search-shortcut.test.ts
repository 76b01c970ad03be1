import { afterEach, describe, expect, it } from 'vitest';
import {
  armSearchShortcut,
  isSearchRequested,
  SEARCH_INPUT_ATTRIBUTE,
  startSearchShortcut,
  subscribeSearchShortcut,
  takeSearchRequest,
} from './search-shortcut.ts';

/** Presses a key on `target` (the page's body unless said) as the browser would; true when it was let through. */
function press(key: string, init: KeyboardEventInit = {}, target: EventTarget = document.body): boolean {
  return target.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true, ...init }));
}
const type = (text: string) => [...text].forEach((c) => press(c));
const flush = () => new Promise<void>((resolve) => queueMicrotask(resolve));

describe('the search shortcut before the search is there', () => {
  afterEach(() => {
    takeSearchRequest();
    document.body.innerHTML = '';
  });

  it('keeps Ctrl+K (and Cmd+K) as a request with what is typed after it, Backspace included', () => {
    startSearchShortcut(true);
    let told = 0;
    const off = subscribeSearchShortcut(() => told++);
    expect(press('k', { ctrlKey: true })).toBe(false);
    expect(isSearchRequested()).toBe(true);
    type('alge');
    expect(press('Backspace')).toBe(false);
    type('é ü');
    expect(takeSearchRequest()).toBe('algé ü');
    expect(isSearchRequested()).toBe(false);
    expect(told).toBe(2);

    press('K', { metaKey: true });
    expect(isSearchRequested()).toBe(true);
    expect(takeSearchRequest()).toBe('');
    off();
  });

  it('lets the search box, Escape and other shortcuts have their keys; Enter waits for the box', () => {
    startSearchShortcut(true);
    const box = document.createElement('input');
    box.setAttribute(SEARCH_INPUT_ATTRIBUTE, '');
    document.body.append(box);
    press('k', { ctrlKey: true });
    expect(press('a', {}, box)).toBe(true);
    expect(press('c', { ctrlKey: true })).toBe(true);
    expect(press('k', { ctrlKey: true, shiftKey: true })).toBe(true);
    expect(press('Enter')).toBe(false);
    expect(press('b')).toBe(false);
    expect(takeSearchRequest()).toBe('b');

    press('k', { ctrlKey: true });
    type('xy');
    expect(press('Escape')).toBe(true);
    expect(isSearchRequested()).toBe(false);
    expect(press('z')).toBe(true);
    expect(takeSearchRequest()).toBe('');
  });

  it('counts nothing while disarmed, and disarming drops a request unless armed again at once', async () => {
    startSearchShortcut(false);
    expect(press('k', { ctrlKey: true })).toBe(true);
    expect(isSearchRequested()).toBe(false);

    armSearchShortcut(true);
    press('k', { ctrlKey: true });
    type('ab');
    // An effect cleaned up and run again in one commit.
    armSearchShortcut(false);
    armSearchShortcut(true);
    await flush();
    expect(isSearchRequested()).toBe(true);

    armSearchShortcut(false);
    await flush();
    expect(isSearchRequested()).toBe(false);
    expect(press('c')).toBe(true);
    expect(takeSearchRequest()).toBe('');
  });
});
