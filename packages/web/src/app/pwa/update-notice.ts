import { PWA_MSG as MSG } from '@studybuddy/shared/messages/pwa';
import { toast } from '../../ui/toast.ts';

const KEY = 'studybuddy.appVersion';

/**
 * Tells the student once that a new version runs: the build writes its version into index.html (vite.config.ts),
 * the browser remembers the one it ran last. The first version seen is not announced.
 */
export function announceUpdate(): void {
  const version = document.querySelector<HTMLMetaElement>('meta[name="app-version"]')?.content;
  if (!version) return;
  try {
    const seen = localStorage.getItem(KEY);
    if (seen === version) return;
    localStorage.setItem(KEY, version);
    if (seen) toast.info(`${MSG.update.title}. ${MSG.update.body}`);
  } catch {
    // Storage disabled: no way to know what ran before.
  }
}
