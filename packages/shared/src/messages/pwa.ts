/**
 * Texts of the installable app and its push notifications (issue 17), part of MSG. Their own module so the
 * offline page and the service worker do not carry every other text.
 */
export const PWA_MSG = {
  offline: {
    title: "You're offline",
    body: "StudyBuddy can't reach the server right now. This page comes back by itself once you're online again.",
    retry: 'Try again',
    outboxTitle: 'Waiting to be sent',
    outboxEmpty: 'Nothing is waiting to be sent.',
    outboxCount: (n: number) =>
      n === 1
        ? '1 message will be sent when you are back online.'
        : `${n} messages will be sent when you are back online.`,
    failed: 'Not sent',
    image: 'Image',
    voice: 'Voice message',
    toFriend: 'Chat',
    toGroup: 'Group',
  },
  update: {
    title: 'StudyBuddy was updated',
    body: 'You are using the newest version.',
  },
  push: {
    title: 'Push notifications',
    thisDevice: 'Notify me on this device',
    thisDeviceHelp: 'Notifications arrive when no StudyBuddy tab is open in front of you.',
    unsupported: 'This browser cannot show push notifications.',
    blocked:
      'Notifications are blocked for StudyBuddy in this browser. Allow them in the site settings, then try again.',
    subscribeFailed: 'Could not turn on notifications on this device. Please try again.',
    messages: 'New messages in my chats and groups',
    friendRequests: 'Friend requests and accepted requests',
    saveFailed: 'Could not save your notification settings. Please try again.',
    mute: 'Mute notifications of this group',
    unmute: 'Unmute notifications of this group',
    muted: 'Group notifications muted.',
    unmuted: 'Group notifications on.',
    invalidEndpoint: 'This push service is not accepted.',
    invalidKeys: 'The subscription keys are not valid.',
    quotaDevices: 'devices with notifications on',
    quotaWhen: 'Turn notifications off on another device and try again.',
    // The notifications themselves
    fallbackTitle: 'StudyBuddy',
    fallbackBody: 'You have something new on StudyBuddy.',
    friendRequestTitle: 'New friend request',
    friendRequestBody: (name: string) => `${name} sent you a friend request.`,
    acceptedTitle: 'Friend request accepted',
    acceptedBody: (name: string) => `${name} accepted your friend request. Say hello!`,
    groupMessageTitle: (group: string, sender: string) => `${sender} in ${group}`,
  },
} as const;
