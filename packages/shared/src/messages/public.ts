/**
 * The texts the log-in page's first load needs (its own, the loading and error states, the resend and social
 * sign-in texts), part of MSG. Their own module so that load carries no other text; the other pages a signed-out
 * visitor sees have theirs in auth.ts, the shell in shell.ts. MSG.signup and MSG.reset join this module's part of
 * them with auth.ts's.
 */
export const PUBLIC_MSG = {
  loading: {
    loading: 'Loading...',
    authenticating: 'Authenticating...',
    slow: 'Taking longer than usual',
    slowNote: 'The server may be waking from sleep mode. Thanks for your patience.',
    retry: 'Retry',
    error: 'Error',
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
    accountDisabled: 'Account is disabled. Please contact support.',
  },
  signup: {
    socialButton: (provider: string) => `Sign up with ${provider}`,
  },
} as const;
