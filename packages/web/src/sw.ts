/// <reference lib="webworker" />
// The service worker (issue 17), built by vite-plugin-pwa (injectManifest) into /sw.js.
import { cleanupOutdatedCaches, matchPrecache, precacheAndRoute } from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import { PWA_MSG } from '@studybuddy/shared/messages/pwa';
import { PUSH_API, type PushPayload } from '@studybuddy/shared/push-api';

declare let self: ServiceWorkerGlobalScope;

const ICON = '/icons/icon-192.png';
const BADGE = '/icons/maskable-192.png';

// A new version takes over at once: the next page load runs it, and the page tells the student once.
self.addEventListener('install', () => void self.skipWaiting());
self.addEventListener('activate', (event) => event.waitUntil(self.clients.claim()));

// Pages come from the network first (each answer carries its own CSP nonce and the newest version); offline, the
// app shell from the precache starts the app, which shows the offline page. The API is never cached.
registerRoute(
  new NavigationRoute(
    async ({ request }) => {
      try {
        return await fetch(request);
      } catch {
        return (await matchPrecache('/index.html')) ?? Response.error();
      }
    },
    { denylist: [/^\/api\//] },
  ),
);

// The app's built files and icons, revisioned: an update downloads what changed, and old caches go.
precacheAndRoute(self.__WB_MANIFEST);
cleanupOutdatedCaches();

/** A same-origin path, or the home page. */
function safePath(url: unknown): string {
  return typeof url === 'string' && url.startsWith('/') && !url.startsWith('//') ? url : '/';
}

function payloadOf(event: PushEvent): PushPayload {
  try {
    const data = event.data?.json() as Partial<PushPayload> | undefined;
    if (data && typeof data.title === 'string') {
      return {
        title: data.title,
        body: typeof data.body === 'string' ? data.body : '',
        url: safePath(data.url),
        tag: typeof data.tag === 'string' ? data.tag : '',
      };
    }
  } catch {
    // Not JSON: the general notice below.
  }
  return { title: PWA_MSG.push.fallbackTitle, body: PWA_MSG.push.fallbackBody, url: '/', tag: '' };
}

self.addEventListener('push', (event) => {
  const notice = payloadOf(event);
  event.waitUntil(
    self.registration.showNotification(notice.title, {
      body: notice.body,
      icon: ICON,
      badge: BADGE,
      data: { url: notice.url },
      ...(notice.tag ? { tag: notice.tag } : {}),
    }),
  );
});

/** Shows the page in a window of the app (the focused one first), or opens one. */
async function openPage(path: string): Promise<void> {
  const url = new URL(path, self.location.origin).href;
  const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
  const ours = windows.filter((w) => new URL(w.url).origin === self.location.origin);
  const target = ours.find((w) => w.focused) ?? ours.find((w) => w.visibilityState === 'visible') ?? ours[0];
  if (target) {
    await target.focus().catch(() => undefined);
    if (target.url === url) return;
    const moved = await target.navigate(url).catch(() => null);
    if (moved) return;
  }
  await self.clients.openWindow(url);
}

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const data = event.notification.data as { url?: unknown } | null;
  event.waitUntil(openPage(safePath(data?.url)));
});

// The browser replaced the subscription (it expired or the push service rotated it): register the new one.
self.addEventListener('pushsubscriptionchange', (event) => {
  const key = event.oldSubscription?.options.applicationServerKey;
  if (!key) return;
  event.waitUntil(
    self.registration.pushManager
      .subscribe({ userVisibleOnly: true, applicationServerKey: key })
      .then((subscription) =>
        fetch(PUSH_API.subscriptions, {
          method: 'POST',
          credentials: 'same-origin',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify(subscription.toJSON()),
        }),
      )
      .then(
        () => undefined,
        () => undefined,
      ),
  );
});
