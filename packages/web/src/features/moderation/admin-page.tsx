import { Stack, Tabs, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { ClipboardList, Flag, MessageSquareHeart, Users } from 'lucide-react';
import { MODERATION_MSG as MSG } from '@studybuddy/shared/messages/moderation';
import { PUBLIC_MSG } from '@studybuddy/shared/messages/public';
import { ApiRequestError } from '../../lib/api.ts';
import { LoadingWrapper } from '../../ui/loading-wrapper.tsx';
import { NotFound } from '../../ui/not-found.tsx';
import { PageHeader } from '../../ui/page-header.tsx';
import { AuditPanel, FeedbackPanel, StudentsPanel } from './admin-panels.tsx';
import { ReportsPanel } from './admin-reports.tsx';
import { adminApi, adminKeys } from './moderation-api.ts';

/**
 * /admin (issue 24 point 3; beyond the spec, not linked anywhere): the report queue, the feedback inbox, a student
 * search and the audit log, for admins only.
 */
export default function AdminPage() {
  const me = useQuery({ queryKey: adminKeys.me, queryFn: adminApi.me, retry: false, staleTime: 60_000 });
  // Everyone but an admin sees the app's ordinary "not found" (the server answers 404 too).
  if (me.error instanceof ApiRequestError && me.error.status === 404) return <NotFound mih="60vh" />;
  if (!me.data) {
    return <LoadingWrapper loading={me.isPending} error={me.error} message={PUBLIC_MSG.loading.loading} />;
  }
  const tabs = MSG.admin.tabs;
  return (
    <Stack gap={0}>
      <PageHeader title={MSG.admin.title}>
        <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
          {me.data.email}
        </Text>
      </PageHeader>
      <Tabs defaultValue="reports" keepMounted={false}>
        <Tabs.List>
          <Tabs.Tab value="reports" leftSection={<Flag size={16} aria-hidden />}>
            {tabs.reports}
          </Tabs.Tab>
          <Tabs.Tab value="feedback" leftSection={<MessageSquareHeart size={16} aria-hidden />}>
            {tabs.feedback}
          </Tabs.Tab>
          <Tabs.Tab value="students" leftSection={<Users size={16} aria-hidden />}>
            {tabs.students}
          </Tabs.Tab>
          <Tabs.Tab value="audit" leftSection={<ClipboardList size={16} aria-hidden />}>
            {tabs.audit}
          </Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="reports" pt="md">
          <ReportsPanel />
        </Tabs.Panel>
        <Tabs.Panel value="feedback" pt="md">
          <FeedbackPanel />
        </Tabs.Panel>
        <Tabs.Panel value="students" pt="md">
          <StudentsPanel />
        </Tabs.Panel>
        <Tabs.Panel value="audit" pt="md">
          <AuditPanel />
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}
