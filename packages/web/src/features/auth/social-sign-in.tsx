import { Button, Divider } from '@mantine/core';
import { LogIn } from 'lucide-react';
import { MSG } from '@studybuddy/shared/messages';
import { useProviders } from './auth-api.ts';

/** 'Sign in with {provider}' when the server has OpenID Connect configured; nothing otherwise. */
export function SocialSignIn() {
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
        {MSG.login.socialButton(oidc.name)}
      </Button>
    </>
  );
}
