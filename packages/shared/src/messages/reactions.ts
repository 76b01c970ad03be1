/** Texts of replies and reactions (issue 30 points 1 and 2), part of MSG. Beyond the spec on purpose. */
export const REACTIONS_MSG = {
  replies: {
    reply: 'Reply',
    replyTo: (name: string) => `Reply to ${name}`,
    replyingTo: (name: string) => `Replying to ${name}`,
    cancelReply: 'Cancel reply',
    photo: 'Photo',
    voice: 'Voice message',
    deleted: 'Original message was deleted',
    blocked: 'Message from a blocked student',
    jumpTo: (name: string) => `Go to the message from ${name}`,
    jumpToDeleted: 'Go to the deleted message',
  },
  reactions: {
    addReaction: 'Add a reaction',
    moreReactions: 'More reactions',
    pickerTitle: 'Pick a reaction',
    /** `emoji` by these students (the reader first as "You"). */
    who: (emoji: string, names: string[]) => `${emoji} ${names.join(', ')}`,
    you: 'You',
    toggle: (emoji: string, count: number, mine: boolean) =>
      `${emoji} ${count} reaction${count === 1 ? '' : 's'}${mine ? ', yours included: click to remove yours' : ': click to add yours'}`,
    reactWith: (emoji: string) => `React with ${emoji}`,
    notAllowed: 'This reaction is not available.',
    failed: 'Could not save the reaction. Please try again.',
    label: 'Reactions',
  },
};
