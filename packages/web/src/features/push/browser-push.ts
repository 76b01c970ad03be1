import { pushApi } from './push-api.ts';

/** This browser's side of Web Push: permission, the PushSubscription, and telling the server. */

export type DeviceState = 'unsupported' | 'blocked' | 'off' | 'on';

export function pushSupported(): boolean {
  return 'serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window;
}

async function registration(): Promise<ServiceWorkerRegistration | undefined> {
  return pushSupported() ? navigator.serviceWorker.getRegistration('/') : undefined;
}

export async function deviceState(): Promise<DeviceState> {
  if (!pushSupported()) return 'unsupported';
  if (Notification.permission === 'denied') return 'blocked';
  const subscription = await (await registration())?.pushManager.getSubscription();
  return subscription && Notification.permission === 'granted' ? 'on' : 'off';
}

/** Asks for permission (the switch's click is the user gesture), subscribes and registers with the server. */
export async function enableDevice(): Promise<DeviceState> {
  if (!pushSupported()) return 'unsupported';
  if ((await Notification.requestPermission()) !== 'granted') return 'blocked';
  const reg = await navigator.serviceWorker.ready;
  const { publicKey } = await pushApi.key();
  const subscription = await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: publicKey });
  await pushApi.subscribe(subscription.toJSON());
  return 'on';
}

/** Stops notices to this browser: the server forgets it, then the push service does. */
export async function disableDevice(): Promise<DeviceState> {
  const subscription = await (await registration())?.pushManager.getSubscription();
  if (subscription) {
    await pushApi.unsubscribe(subscription.endpoint).catch(() => undefined);
    await subscription.unsubscribe();
  }
  return pushSupported() ? 'off' : 'unsupported';
}

/** At log-out: the server drops the subscription with the session; the browser's own goes too. */
export async function forgetDevice(): Promise<void> {
  try {
    await (await (await registration())?.pushManager.getSubscription())?.unsubscribe();
  } catch {
    // Nothing to forget, or the push service cannot be told now: the server no longer sends to it anyway.
  }
}
