// The push feature's public entry: the Profile switches, the group mute button, and forgetting the device at log-out.
export { forgetDevice } from './browser-push.ts';
export { MuteGroupButton } from './mute-group-button.tsx';
export { PushSettings } from './push-settings.tsx';
