/**
 * The texts of the pages a signed-out visitor sees after the log-in page (sign-up, password reset, e-mail
 * verification), part of MSG. The log-in page's few of signup and reset are in public.ts (its first load).
 */
export const AUTH_MSG = {
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
  },
  reset: {
    sent: 'Password reset email sent (if an account associated with this email exists). Check your inbox.',
    mismatch: 'Passwords do not match.',
    tooShort: 'Password must be at least 6 characters long.',
    invalidCode: 'Invalid or expired password reset code.',
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
