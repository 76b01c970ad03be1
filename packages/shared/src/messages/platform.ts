/** Texts of what the platform answers for every feature: API errors, connections, faults and quotas, part of MSG. */
export const PLATFORM_MSG = {
  api: {
    notFound: 'Not found',
    badJson: 'The request body is not valid JSON.',
    unsupportedType: 'Unsupported content type.',
    tooLarge: 'The request body is too large.',
    rateLimited: 'Too many requests. Please try again later.',
    unauthenticated: 'Please log in to continue.',
    forbidden: 'You do not have permission to do that.',
    internal: 'Something went wrong on our side. Please try again.',
  },
  /** Slow clients (issue 31 point 4): connections cut or refused by the server's connection guard. */
  connections: {
    tooSlow: 'The request arrived too slowly and was stopped. Please try again on a better connection.',
    tooMany: 'Too many connections from your network at once. Please try again in a moment.',
    headersTooLarge: 'The request headers are too large.',
    unreadable: 'The request could not be read.',
  },
  /** Faults survived (issue 31 points 1–3): what a request hears while a part the server needs is away. */
  faults: {
    databaseUnavailable:
      'StudyBuddy cannot reach its database right now. Nothing was saved; please try again in a moment.',
    storageUnavailable: 'File storage is not answering right now. Nothing was saved; please try again in a moment.',
    diskFull:
      'The server has run out of disk space, so nothing new can be saved for now. What is already saved stays readable.',
  },
  quota: {
    /** One text for every per-student limit; it names the limit, its size and when it frees up. */
    exceeded: (what: string, limit: string, when: string) => `Limit reached: ${what} (${limit}). ${when}`,
    storage: 'storage space for your files',
    documentsPerDay: 'course documents uploaded per day',
    uploadsPerDay: 'large uploads started per day',
    openUploads: 'unfinished large uploads at once',
    sockets: 'open tabs and devices connected at once',
    friendRequestsPerDay: 'friend requests sent per day',
    feedbackPerHour: 'feedback messages per hour from your network',
    tryTomorrow: 'Please try again tomorrow.',
    tryLater: 'Please try again later.',
    freeSpace: 'Delete some documents or files to free space.',
    closeTabs: 'Close another tab or device and try again.',
    finishUploads: 'Finish or cancel one of them and try again.',
  },
} as const;
