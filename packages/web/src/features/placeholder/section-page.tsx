import { Text } from '@mantine/core';
import { PageHeader } from '../../ui/page-header.tsx';

/** A guarded screen whose feature has not landed yet: the shell with its title. */
export default function SectionPage({ title }: { title: string }) {
  return (
    <>
      <PageHeader title={title} />
      <Text c="dimmed">This part of StudyBuddy is coming soon.</Text>
    </>
  );
}
