/**
 * Whether Mantine's toasts are wanted yet (app/providers.tsx mounts them then): a signed-in page wants them at once,
 * any page with its first toast (toast.ts). Its own module, so the first load carries neither the toasts nor their
 * store.
 */
let wanted = false;
const listeners = new Set<() => void>();

/** From now on the toasts are mounted (once asked, for good). */
export function wantToasts(): void {
  if (wanted) return;
  wanted = true;
  for (const listener of listeners) listener();
}

export const toastsWanted = (): boolean => wanted;

export function subscribeToastsWanted(listener: () => void): () => void {
  listeners.add(listener);
  return () => void listeners.delete(listener);
}
