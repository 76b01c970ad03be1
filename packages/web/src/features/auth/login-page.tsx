import { Anchor, Center, Paper, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { ROUTES } from '@studybuddy/shared/routes';

export default function LoginPage() {
  return (
    <Center mih="100vh" p="md">
      <Paper withBorder p="xl" w={400}>
        <Stack>
          <Title order={1} size="h2">
            Log In
          </Title>
          <Text>
            New here?{' '}
            <Anchor component={Link} to={ROUTES.signup}>
              Sign up
            </Anchor>
          </Text>
        </Stack>
      </Paper>
    </Center>
  );
}
