import { Anchor, Center, Paper, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { ROUTES } from '@studybuddy/shared/routes';

export default function SignupPage() {
  return (
    <Center mih="100vh" p="md">
      <Paper withBorder p="xl" w={400}>
        <Stack>
          <Title order={1} size="h2">
            Sign Up
          </Title>
          <Text>
            Have an account?{' '}
            <Anchor component={Link} to={ROUTES.login}>
              Log in
            </Anchor>
          </Text>
        </Stack>
      </Paper>
    </Center>
  );
}
