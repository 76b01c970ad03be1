/** Texts of the profile's Security and Your data sections (beyond the spec), part of MSG. */
export const ACCOUNT_MSG = {
  /** Beyond the spec: the profile's Security and Your data sections. */
  account: {
    security: 'Security',
    changePassword: 'Change password',
    currentPassword: 'Current password',
    newPassword: 'New password',
    confirmPassword: 'Confirm new password',
    changePasswordIntro: 'Changing your password signs you out on every other browser and device.',
    changePasswordSubmit: 'Change password',
    passwordChanged: 'Password changed. You were signed out everywhere else.',
    wrongCurrentPassword: 'Your current password is incorrect.',
    noPasswordYet:
      'Your account signs in with a social identity provider and has no password yet. Use Forgot Password? on the log-in page to set one.',
    samePassword: 'Please choose a password different from your current one.',
    changeFailed: 'Could not change your password. Please try again.',
    sessions: 'Where you are signed in',
    sessionsIntro: 'Browsers and devices signed in to your account. Sign out any you do not recognise.',
    thisBrowser: 'This browser',
    unknownBrowser: 'Unknown browser',
    signedIn: (when: string) => `Signed in ${when}`,
    lastSeen: (when: string) => `Last active ${when}`,
    signOut: 'Sign out',
    signOutNamed: (name: string) => `Sign out ${name}`,
    signOutOthers: 'Sign out everywhere else',
    signedOutOne: 'That browser was signed out.',
    signedOutOthers: (n: number) =>
      n === 0 ? 'No other browser was signed in.' : `Signed out ${n} other browser${n === 1 ? '' : 's'}.`,
    sessionNotFound: 'That session has already ended.',
    sessionsFailed: 'Could not load your sessions. Please try again.',
    signOutFailed: 'Could not sign that browser out. Please try again.',
    yourData: 'Your data',
    exportIntro:
      'Download a ZIP file with your profile, courses, friends, the messages you sent, your groups, cached coursework, your course documents with their text, and the feedback you sent. One download an hour.',
    exportButton: 'Download my data',
    exportStarted: 'Your download has started.',
    exportsPerHour: 'data downloads per hour',
  },
} as const;
