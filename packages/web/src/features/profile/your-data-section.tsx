import { Alert, Button, Paper, Stack, Text, Title } from '@mantine/core';
import { Download } from 'lucide-react';
import { MSG } from '@studybuddy/shared/messages';
import { ApiRequestError } from '../../lib/api.ts';
import { useDownloadData } from './account-api.ts';

/** Profile → Your data: download everything the student put in, as a ZIP (once an hour; beyond the spec). */
export function YourDataSection() {
  const download = useDownloadData();
  const failure =
    download.error instanceof ApiRequestError && download.error.status > 0 && download.error.status < 500
      ? download.error.message
      : MSG.api.internal;
  return (
    <Paper withBorder p="lg" component="section" aria-labelledby="your-data-title">
      <Stack gap="sm">
        <Title order={2} size="h4" id="your-data-title">
          {MSG.account.yourData}
        </Title>
        <Text size="sm">{MSG.account.exportIntro}</Text>
        {download.isError && (
          <Alert color="red" role="alert">
            {failure}
          </Alert>
        )}
        {download.isSuccess && (
          <Text size="sm" role="status">
            {MSG.account.exportStarted}
          </Text>
        )}
        <Button
          leftSection={<Download size={16} />}
          loading={download.isPending}
          onClick={() => download.mutate()}
          style={{ alignSelf: 'flex-start' }}
        >
          {MSG.account.exportButton}
        </Button>
      </Stack>
    </Paper>
  );
}
