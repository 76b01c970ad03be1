/**
 * The spec's texts for the pages a signed-out visitor sees first (log-in, sign-up, reset, verification, loading
 * states), part of MSG. Their own module so the log-in page's first load does not carry every other text.
 */
export const PUBLIC_MSG = {
  notFound: {
    title: '404 - Page Not Found!',
    body: "Sorry, the page you're looking for doesn't exist.",
  },
  loading: {
    loading: 'Loading...',
    authenticating: 'Authenticating...',
    slow: 'Taking longer than usual',
    slowNote: 'The server may be waking from sleep mode. Thanks for your patience.',
    retry: 'Retry',
    error: 'Error',
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
  signup: {
    invalidDomain: 'Invalid email domain. Please use your university email to sign up.',
    emailInUse: 'Error: This email is already registered. Please try logging in instead.',
    invalidEmail: 'Error: Please enter a valid email address.',
    notAllowed: 'Error: Email/password accounts are not enabled. Please contact support.',
    weakPassword: 'Error: Please choose a stronger password (at least 6 characters).',
    // Beyond the spec's texts
    tooMany: 'Too many sign-up attempts. Please try again later.',
    passwordTooLong: 'Error: Please choose a password of at most 128 characters.',
    mailFailed: 'Error: We could not send the verification email. Please try again.',
    title: 'Sign Up',
    submit: 'Sign Up',
    socialButton: (provider: string) => `Sign up with ${provider}`,
  },
  login: {
    verificationSent: 'Email verification sent! Please check your inbox.',
    verified: 'Email verified! Please log in to continue to the site.',
    userNotFound: 'No user found with this email address.',
    wrongPassword: 'Incorrect password. Please try again.',
    invalidCredential: 'Invalid credentials provided. Please check your email and password.',
    unverified: 'Please verify your email before logging in.',
    socialNotVerified: 'You cannot access the product with this account.',
    socialInvalidDomain: 'Invalid email domain. Please use your university email to sign up.',
    errorPrefix: 'Error:',
    // Beyond the spec's texts
    title: 'Log In',
    submit: 'Log In',
    forgotPassword: 'Forgot Password?',
    resendButton: 'Resend Verification Email',
    socialButton: (provider: string) => `Sign in with ${provider}`,
    socialFailed: 'Social sign-in failed. Please try again.',
    tooMany: 'Too many failed log-in attempts. Please try again later.',
  },
  resend: {
    userNotFound: 'Account not found. Please try logging in again.',
    invalidCredentials: 'Invalid credentials. Please try logging in again.',
    tooMany: 'Too many attempts. Please try again later.',
    network: 'Network error. Please check your connection and try again.',
    other: 'Failed to resend verification email. Please try logging in again.',
    missingCredentials: 'Unable to resend verification email. Please try logging in again.',
    // Beyond the spec's texts
    alreadyVerified: 'Your email is already verified. Please log in.',
  },
  reset: {
    needEmail: 'Please enter your email to reset your password.',
    sent: 'Password reset email sent (if an account associated with this email exists). Check your inbox.',
    mismatch: 'Passwords do not match.',
    tooShort: 'Password must be at least 6 characters long.',
    invalidCode: 'Invalid or expired password reset code.',
    accountDisabled: 'Account is disabled. Please contact support.',
    /**
     * Refusals of a reset link or a new password: `{code}: {message}` (requirements §8); the code is the API error
     * code.
     */
    refusals: {
      expiredLink: 'expired_link: This password reset link has expired. Please request a new one.',
      invalidLink:
        'invalid_link: This password reset link is not valid. It may have been used already or replaced by a newer one.',
      accountDisabled: 'account_disabled: Account is disabled. Please contact support.',
      userNotFound: 'user_not_found: There is no account for this password reset link any more.',
      weakPassword: 'weak_password: Password must be at least 6 characters long.',
    },
    // Beyond the spec's texts
    tooMany: 'Too many password reset requests. Please try again later.',
    title: 'Reset your password',
    checking: 'Checking your password reset link...',
    newPassword: 'New password',
    confirmPassword: 'Confirm new password',
    submit: 'Reset Password',
    success: 'Your password has been reset. Redirecting you to log in...',
  },
  verify: {
    invalidLink: 'Invalid verification link',
    failed: 'Verification failed. Please try again.',
    invalidOrExpired: 'The verification link is invalid or has expired.',
    // Beyond the spec's texts
    verifying: 'Verifying your email...',
    success: 'Your email has been verified. Redirecting you to log in...',
    redirecting: 'Redirecting you to log in...',
  },
} as const;
