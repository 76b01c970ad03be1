/** Texts of blocking (issue 24 point 1), part of MSG. Beyond the spec on purpose. */
export const BLOCK_MSG = {
  block: {
    action: 'Block',
    blockStudent: (name: string) => `Block ${name}`,
    confirmTitle: (name: string) => `Block ${name}?`,
    confirmBody:
      'They will not be able to find you, send you friend requests or message you, and you will not see them in suggestions or search. If you are friends, the friendship ends and your chat stays with you, read-only. They are not told.',
    confirm: 'Block',
    cancel: 'Cancel',
    blocked: (name: string) => `You blocked ${name}.`,
    failed: 'Could not block this student. Please try again.',
    notYourself: 'You cannot block yourself.',
    unblock: 'Unblock',
    unblockStudent: (name: string) => `Unblock ${name}`,
    unblocked: (name: string) => `You unblocked ${name}.`,
    unblockFailed: 'Could not unblock this student. Please try again.',
    youBlocked: 'You blocked this student. Unblock them first.',
    listTitle: 'Blocked students',
    listIntro: 'Blocked students cannot find you, send you friend requests or message you. They are not told.',
    listEmpty: 'You have not blocked anyone.',
    viewChat: 'Chat history',
    viewChatOf: (name: string) => `Chat history with ${name}`,
    readOnly: (name: string) => `You blocked ${name}. This chat is kept read-only; unblock to see them again.`,
    folded: 'Message from a blocked student',
    show: 'Show',
    showMessage: 'Show the message from a blocked student',
    blockedBadge: 'Blocked',
  },
  chatClosed: {
    /** The other side of a one-to-one chat that is closed (unfriended or blocked): never says which. */
    title: 'This chat is closed',
    body: 'You can only message your friends.',
  },
} as const;
