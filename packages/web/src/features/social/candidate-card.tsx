import { Badge, Button, Card, Group, SimpleGrid } from '@mantine/core';
import { CalendarClock, ChevronRight, Undo2, UserCheck, UserPlus } from 'lucide-react';
import { MSG } from '@studybuddy/shared/messages';
import { freeTogetherLabel } from '@studybuddy/shared/schedule';
import type { MatchCandidate } from '@studybuddy/shared/social';
import { BlockButton } from '../blocks/index.ts';
import { ReportButton } from '../moderation/index.ts';
import { ImageCarousel } from './image-carousel.tsx';
import { ProfileDetails } from './profile-details.tsx';

interface Props {
  candidate: MatchCandidate;
  busy: boolean;
  onNext: () => void;
  nextLabel?: string;
  onConnect: () => void;
  onUnsend: () => void;
  onAccept: () => void;
  /** After the student blocked this candidate (they leave the suggestions). */
  onBlocked: () => void;
}

/**
 * One match candidate: photos, details, Report and Block, and Next plus Connect, Unsend Request or Accept Friend
 * Request.
 */
export function CandidateCard({
  candidate,
  busy,
  onNext,
  nextLabel = MSG.match.next,
  onConnect,
  onUnsend,
  onAccept,
  onBlocked,
}: Props) {
  const { request } = candidate;
  return (
    <Card withBorder radius="lg" padding="lg" shadow="sm" data-testid="match-candidate">
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="lg">
        {/* Remounted per candidate so the carousel starts at the first photo. */}
        <ImageCarousel key={candidate.uid} images={candidate.images} name={candidate.name} />
        <ProfileDetails profile={candidate} />
      </SimpleGrid>
      {candidate.freeTogether && (
        <Badge
          mt="md"
          variant="light"
          radius="sm"
          tt="none"
          leftSection={<CalendarClock size={14} aria-hidden />}
          data-testid="free-together"
        >
          {MSG.freeTime.together(freeTogetherLabel(candidate.freeTogether))}
        </Badge>
      )}
      <Group justify="flex-end" mt="lg" gap="sm">
        <Group mr="auto" gap={4}>
          <ReportButton userId={candidate.uid} name={candidate.name} />
          <BlockButton userId={candidate.uid} name={candidate.name} onBlocked={onBlocked} />
        </Group>
        <Button variant="default" rightSection={<ChevronRight size={16} aria-hidden />} onClick={onNext}>
          {nextLabel}
        </Button>
        {request.kind === 'received' ? (
          <Button leftSection={<UserCheck size={16} aria-hidden />} loading={busy} onClick={onAccept}>
            {MSG.match.accept}
          </Button>
        ) : request.kind === 'sent' ? (
          <Button variant="light" leftSection={<Undo2 size={16} aria-hidden />} loading={busy} onClick={onUnsend}>
            {MSG.match.unsend}
          </Button>
        ) : (
          <Button leftSection={<UserPlus size={16} aria-hidden />} loading={busy} onClick={onConnect}>
            {MSG.match.connect}
          </Button>
        )}
      </Group>
    </Card>
  );
}
