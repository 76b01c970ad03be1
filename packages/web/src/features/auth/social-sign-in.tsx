import { Button, Divider } from '@mantine/core';
import { LogIn } from 'lucide-react';
import { PUBLIC_MSG as MSG } from '@studybuddy/shared/messages/public';
import { useProviders } from './auth-api.ts';

/**
 * 'Sign in with {provider}' on the log-in page, 'Sign up with {provider}' on the sign-up page, when the server has
 * OpenID Connect configured; nothing otherwise. Both start the same flow (a first sign-in creates the account).
 */
export function SocialSignIn({ mode }: { mode: 'login' | 'signup' }) {
  const providers = useProviders();
  const oidc = providers.data?.oidc;
  if (!oidc) return null;
  return (
    <>
      <Divider label="or" labelPosition="center" />
      <Button
        component="a"
        href="/api/auth/oidc/start"
        variant="default"
        fullWidth
        leftSection={<LogIn size={18} aria-hidden />}
      >
        {mode === 'signup' ? MSG.signup.socialButton(oidc.name) : MSG.login.socialButton(oidc.name)}
      </Button>
    </>
  );
}
