/** The texts of the signed-in layout (account menu, toasts) and of an unknown address, part of MSG. */
export const SHELL_MSG = {
  notFound: {
    title: '404 - Page Not Found!',
    body: "Sorry, the page you're looking for doesn't exist.",
  },
  shell: {
    logoutFailed: 'An error occurred during logout. Please try again.',
    viewProfile: 'View Profile',
    logout: 'Logout',
    /** The name of a toast's close button. */
    closeToast: 'Close',
    /** Dark mode (issue 30 point 3): the account menu's choice of colours, kept by this browser. */
    colorScheme: 'Appearance',
    colorSchemes: { light: 'Light', dark: 'Dark', auto: 'System' },
  },
} as const;
