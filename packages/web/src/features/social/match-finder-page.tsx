import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { ActionIcon, Button, Center, Paper, Stack, Text, Tooltip } from '@mantine/core';
import { useInfiniteQuery, useQueryClient } from '@tanstack/react-query';
import { Search, Sparkles } from 'lucide-react';
import { MSG } from '@studybuddy/shared/messages';
import { MATCH_PAGE_DEFAULT, type MatchCandidate } from '@studybuddy/shared/social';
import { LoadingWrapper } from '../../ui/loading-wrapper.tsx';
import { useSession } from '../auth/index.ts';
import { StudyGroupFinder } from '../groups/index.ts';
import { PageHeader } from '../../ui/page-header.tsx';
import { CandidateCard } from './candidate-card.tsx';
import { socialApi, socialKeys } from './social-api.ts';
import { patchMatches, useRequestActions, type ActionOutcome } from './use-request-actions.ts';
import { UserSearch } from './user-search.tsx';

/** BuddyFinder (/matchmaking): ranked suggestions one at a time, and a user search. */
export default function MatchFinderPage() {
  const matches = useInfiniteQuery({
    queryKey: socialKeys.matches,
    queryFn: ({ pageParam }) => socialApi.matches(pageParam, MATCH_PAGE_DEFAULT),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
    // The list must not reshuffle under the student while they browse it.
    staleTime: Infinity,
    refetchOnWindowFocus: false,
  });
  const [index, setIndex] = useState(0);
  const [picked, setPicked] = useState<MatchCandidate | null>(null);
  const [searchOpen, setSearchOpen] = useState(false);
  const actions = useRequestActions();
  const client = useQueryClient();
  const session = useSession();
  const courses = session.data?.profile?.courses.map((c) => c.name) ?? [];

  // ?student=<id>&name=<name> (the search box): that student's card, found by their name as the user search would.
  const [params, setParams] = useSearchParams();
  const studentId = params.get('student');
  const studentName = params.get('name');
  useEffect(() => {
    if (!studentId || !studentName) return;
    let live = true;
    const done = () => live && setParams({}, { replace: true });
    socialApi.search(studentName).then((found) => {
      const candidate = found.users.find((u) => u.uid === studentId);
      if (live && candidate) setPicked(candidate);
      done();
    }, done);
    return () => {
      live = false;
    };
  }, [studentId, studentName, setParams]);

  const list = matches.data?.pages.flatMap((p) => p.candidates) ?? [];
  const current = picked ?? list[index];
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = matches;
  useEffect(() => {
    if (index >= list.length - 2 && hasNextPage && !isFetchingNextPage) void fetchNextPage();
  }, [index, list.length, hasNextPage, isFetchingNextPage, fetchNextPage]);

  const apply = (outcome: ActionOutcome | null) => {
    if (!outcome || !picked) return;
    setPicked(outcome.kind === 'friends' ? null : { ...picked, request: outcome });
  };

  const exhausted = !picked && index >= list.length && !hasNextPage;
  const waiting = matches.isPending || (!current && !exhausted);

  return (
    <Stack maw={880}>
      <PageHeader title={MSG.match.title}>
        <Tooltip label={MSG.match.search}>
          <ActionIcon variant="light" size="lg" aria-label={MSG.match.search} onClick={() => setSearchOpen(true)}>
            <Search size={18} aria-hidden />
          </ActionIcon>
        </Tooltip>
      </PageHeader>
      <LoadingWrapper loading={waiting} error={matches.error} message="Finding study partners...">
        {current ? (
          <CandidateCard
            candidate={current}
            busy={actions.busy === current.uid}
            nextLabel={picked ? MSG.match.backToMatches : MSG.match.next}
            onNext={() => (picked ? setPicked(null) : setIndex((i) => i + 1))}
            onConnect={() => void actions.connect(current).then(apply)}
            onUnsend={() => void actions.unsend(current).then(apply)}
            onAccept={() => void actions.accept(current).then(apply)}
            onBlocked={() => {
              // A blocked student leaves the suggestions (the next one shows in their place).
              patchMatches(client, current.uid, { kind: 'friends' });
              if (picked) setPicked(null);
            }}
          />
        ) : (
          <Paper withBorder radius="lg" p="xl">
            <Center>
              <Stack align="center" gap="sm">
                <Sparkles size={32} aria-hidden color="var(--mantine-color-indigo-6)" />
                <Text fw={600} size="lg" role="status">
                  {MSG.match.empty}
                </Text>
                <Button
                  variant="default"
                  leftSection={<Search size={16} aria-hidden />}
                  onClick={() => setSearchOpen(true)}
                >
                  {MSG.match.search}
                </Button>
              </Stack>
            </Center>
          </Paper>
        )}
      </LoadingWrapper>
      <StudyGroupFinder courses={courses} />
      <UserSearch
        opened={searchOpen}
        onClose={() => setSearchOpen(false)}
        onPick={(c) => {
          setPicked(c);
          setSearchOpen(false);
        }}
      />
    </Stack>
  );
}
