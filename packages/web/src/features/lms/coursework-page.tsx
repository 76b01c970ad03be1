import { useEffect, useMemo, useState } from 'react';
import { Box, Button, Center, Group, Loader, LoadingOverlay, Paper, SimpleGrid, Stack, Text } from '@mantine/core';
import { FilterX, RefreshCw } from 'lucide-react';
import { useSearchParams } from 'react-router';
import { filterCoursework, groupOptions, sortCoursework } from '@studybuddy/shared/coursework-filters';
import { MSG } from '@studybuddy/shared/messages';
import { formatWhen } from '../../lib/date-format.ts';
import { LoadingWrapper } from '../../ui/loading-wrapper.tsx';
import { PageHeader } from '../../ui/page-header.tsx';
import { useSession } from '../auth/index.ts';
import { CalendarSlot, type CalendarParts } from '../calendar/index.ts';
import { courseColor } from './course-colors.ts';
import { CourseworkCard } from './coursework-card.tsx';
import { CourseworkErrorOverlay, CourseworkErrorPage, TokenExpiredOverlay } from './coursework-errors.tsx';
import { CourseworkFiltersBar } from './coursework-filters-bar.tsx';
import { useLmsStatus } from './lms-api.ts';
import { NotConnected } from './not-connected.tsx';
import { SkippedCourses } from './skipped-courses.tsx';
import { useCardSelection, type CardSelection } from './use-card-selection.ts';
import { useCoursework } from './use-coursework.ts';
import { useCourseworkPreferences } from './use-coursework-preferences.ts';

const CARDS_PER_PAGE = 30;

/** The 'Coursework' page at /assignments (requirements §2, §4, §8). */
export default function CourseworkPage() {
  const session = useSession();
  const userId = session.data?.user?.id ?? '';
  const status = useLmsStatus(!!userId);
  if (status.isPending) {
    return (
      <>
        <PageHeader title={MSG.coursework.title} />
        <LoadingWrapper loading message={MSG.loading.loading} />
      </>
    );
  }
  if (status.error || !status.data.connected) {
    return (
      <>
        <PageHeader title={MSG.coursework.title} />
        <NotConnected error={status.error?.message} />
      </>
    );
  }
  return <ConnectedCoursework key={userId} userId={userId} />;
}

function ConnectedCoursework({ userId }: { userId: string }) {
  const selection = useCardSelection();
  return (
    <CalendarSlot selection={selection}>
      {(calendar) => <Coursework userId={userId} selection={selection} calendar={calendar} />}
    </CalendarSlot>
  );
}

function Coursework({
  userId,
  selection,
  calendar,
}: {
  userId: string;
  selection: CardSelection;
  calendar: CalendarParts;
}) {
  const status = useLmsStatus();
  const cw = useCoursework(userId, status.data);
  const { prefs, update, reset } = useCourseworkPreferences(userId);
  const [search, setSearch] = useState('');
  const [now, setNow] = useState(() => new Date());
  // ?item=<id> (a search result): that item is shown first, whatever the filters.
  const [params, setParams] = useSearchParams();
  const foundId = params.get('item');
  // The error the user closed; a new failure shows again.
  const [dismissedError, setDismissedError] = useState<unknown>(null);

  // "Time left" stays current.
  useEffect(() => {
    const t = setInterval(() => setNow(new Date()), 60_000);
    return () => clearInterval(t);
  }, []);
  const errorDismissed = dismissedError !== null && dismissedError === cw.error;

  const data = cw.data;
  const courses = useMemo(() => data?.courses ?? [], [data]);
  const names = useMemo(() => Object.fromEntries(courses.map((c) => [c.id, c.name])), [courses]);
  const ids = useMemo(() => courses.map((c) => c.id), [courses]);
  const items = useMemo(() => data?.coursework ?? [], [data]);
  const found = foundId ? items.find((i) => i.id === foundId) : undefined;
  const groups = useMemo(() => groupOptions(items, prefs.selectedCourses), [items, prefs.selectedCourses]);
  // A saved group that the selected courses no longer have counts as All Groups.
  const effective = useMemo(
    () => (groups.includes(prefs.selectedGroup) ? prefs : { ...prefs, selectedGroup: '' }),
    [groups, prefs],
  );
  const shown = useMemo(
    () => sortCoursework(filterCoursework(items, effective, search, names, now), effective.sortBy, names),
    [items, effective, search, names, now],
  );

  // Cards come in pages of 30 ("Show more"); a new filter starts from the first page again.
  const filterKey = JSON.stringify([effective, search]);
  const [paging, setPaging] = useState({ key: filterKey, limit: CARDS_PER_PAGE });
  if (paging.key !== filterKey) setPaging({ key: filterKey, limit: CARDS_PER_PAGE });
  const visible = shown.slice(0, paging.key === filterKey ? paging.limit : CARDS_PER_PAGE);

  const expired = !!cw.errorMessage && cw.errorMessage.includes('token has expired');
  const retryDisabled = cw.loading || cw.refreshesRemaining === 0;
  const refreshLabel = cw.loading ? MSG.coursework.refreshing : MSG.coursework.refresh(cw.refreshesRemaining);

  const header = (
    <PageHeader title={MSG.coursework.title}>
      <Group gap="xs">
        {data && calendar.actions}
        <Button
          variant="default"
          leftSection={<FilterX size={16} aria-hidden />}
          onClick={() => {
            reset();
            setSearch('');
          }}
        >
          {MSG.coursework.resetFilters}
        </Button>
        <Button
          leftSection={<RefreshCw size={16} aria-hidden />}
          onClick={cw.forceRefresh}
          disabled={cw.loading || cw.refreshesRemaining === 0}
        >
          {refreshLabel}
        </Button>
      </Group>
    </PageHeader>
  );

  if (!data) {
    return (
      <>
        {header}
        {cw.errorMessage ? (
          <CourseworkErrorPage message={cw.errorMessage} onRetry={cw.reload} retryDisabled={retryDisabled} />
        ) : (
          <LoadingWrapper loading message={MSG.coursework.updating} />
        )}
        <TokenExpiredOverlay
          opened={expired && !errorDismissed}
          onClose={() => setDismissedError(cw.error)}
          settingsUrl={status.data?.settings_url ?? null}
        />
      </>
    );
  }

  return (
    <>
      {header}
      <Stack gap="md" pos="relative">
        {found && (
          <Paper
            withBorder
            p="sm"
            component="section"
            aria-labelledby="coursework-found"
            data-testid="coursework-found"
          >
            <Group justify="space-between" mb="xs">
              <Text id="coursework-found" fw={600}>
                {MSG.search.foundCoursework}
              </Text>
              <Button variant="subtle" size="compact-sm" onClick={() => setParams({}, { replace: true })}>
                {MSG.search.hideFound}
              </Button>
            </Group>
            <CourseworkCard
              item={found}
              courseName={names[found.course_id] ?? found.course_id}
              color={courseColor(found.course_id, ids)}
              now={now}
            />
          </Paper>
        )}
        {calendar.exportBar}
        <CourseworkFiltersBar
          prefs={effective}
          update={update}
          search={search}
          onSearch={setSearch}
          courses={courses}
          groups={groups}
        />
        <Text size="xs" c="dimmed">
          {MSG.coursework.lastUpdated(formatWhen(data.fetched_at, { now }))}
        </Text>
        <SkippedCourses skipped={data.skipped_courses} names={names} />
        {courses.length === 0 && <Text c="dimmed">{MSG.coursework.noCanvasCourses}</Text>}
        <Box pos="relative" mih={120}>
          <LoadingOverlay
            visible={cw.loading}
            zIndex={10}
            overlayProps={{ blur: 1 }}
            loaderProps={{
              children: (
                <Stack align="center" gap="xs" role="status">
                  <Loader />
                  <Text fw={600}>{MSG.coursework.updating}</Text>
                </Stack>
              ),
            }}
          />
          {shown.length === 0 ? (
            <Text c="dimmed" ta="center" py="xl">
              {MSG.coursework.empty}
            </Text>
          ) : (
            <SimpleGrid
              cols={{ base: 1, sm: 2, lg: 3 }}
              spacing="md"
              component="ul"
              style={{ listStyle: 'none', padding: 0, margin: 0 }}
            >
              {visible.map((item) => (
                <li key={item.id} style={{ display: 'flex' }}>
                  <CourseworkCard
                    item={item}
                    courseName={names[item.course_id] ?? item.course_id}
                    color={courseColor(item.course_id, ids)}
                    now={now}
                    exportMode={selection.exportMode}
                    selected={selection.selected.has(item.id)}
                    onToggle={() => selection.toggle(item.id)}
                  />
                </li>
              ))}
            </SimpleGrid>
          )}
          {visible.length < shown.length && (
            <Center mt="md">
              <Button
                variant="default"
                onClick={() => setPaging({ key: filterKey, limit: paging.limit + CARDS_PER_PAGE })}
              >
                {MSG.coursework.showMore(shown.length - visible.length)}
              </Button>
            </Center>
          )}
        </Box>
      </Stack>
      <CourseworkErrorOverlay
        opened={!!cw.errorMessage && !expired && !errorDismissed}
        onClose={() => {
          setDismissedError(cw.error);
          cw.dismissError();
        }}
        message={cw.errorMessage ?? ''}
        onRetry={() => {
          cw.dismissError();
          cw.forceRefresh();
        }}
        retryDisabled={retryDisabled}
      />
      <TokenExpiredOverlay
        opened={expired && !errorDismissed}
        onClose={() => setDismissedError(cw.error)}
        settingsUrl={status.data?.settings_url ?? null}
      />
    </>
  );
}
