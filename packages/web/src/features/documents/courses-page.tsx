import { useMemo, useState } from 'react';
import { Alert, Anchor, Button, FileButton, Grid, Group, Paper, Progress, Stack, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { CircleCheck, Eye, Filter, PlugZap, Search, Upload } from 'lucide-react';
import { Link, useSearchParams } from 'react-router';
import { MSG } from '@studybuddy/shared/messages';
import { ROUTES } from '@studybuddy/shared/routes';
import { LoadingWrapper } from '../../ui/loading-wrapper.tsx';
import { PageHeader } from '../../ui/page-header.tsx';
import { useSession } from '../auth/index.ts';
import { CourseSidebar } from './course-sidebar.tsx';
import { applyFilters, DocumentFilters, NO_FILTERS, type Filters } from './document-filters.tsx';
import { DocumentList } from './document-list.tsx';
import { DocumentPanel } from './document-panel.tsx';
import type { TextFocus } from './document-text.tsx';
import { useCourseDocuments } from './documents-api.ts';
import { TextMatches } from './text-matches.tsx';
import { useDocumentUpload } from './use-document-upload.ts';

/** /courses (requirements §2 Courses): the profile's courses, their documents, uploads, and the document panel. */
export default function CoursesPage() {
  const session = useSession();
  const courses = useMemo(() => session.data?.profile?.courses ?? [], [session.data]);
  const [params, setParams] = useSearchParams();
  const courseId = courses.some((c) => c.id === params.get('course')) ? params.get('course') : null;
  const documentId = courseId ? params.get('doc') : null;
  const course = courses.find((c) => c.id === courseId);
  const [panelOpen, setPanelOpen] = useState(!!documentId);
  const [focus, setFocus] = useState<TextFocus | null>(null);
  // ?page=N&at=start-end (a search result): the document opens at that page, the word found highlighted.
  const target =
    documentId && params.get('page') ? `${documentId}|${params.get('page')}|${params.get('at') ?? ''}` : null;
  const [openedTarget, setOpenedTarget] = useState<string | null>(null);
  if (target !== openedTarget) {
    setOpenedTarget(target);
    if (target) {
      const page = Number(params.get('page'));
      const [a, b] = (params.get('at') ?? '').split('-').map(Number);
      const start = a !== undefined && Number.isInteger(a) && a >= 0 ? a : 0;
      const end = b !== undefined && Number.isInteger(b) && b >= start ? b : start;
      if (Number.isInteger(page) && page > 0) {
        setFocus({ page, start, end, nonce: page * 1e6 + start });
        setPanelOpen(true);
      }
    }
  }
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), 300);
  const [showFilters, setShowFilters] = useState(false);
  const [filters, setFilters] = useState<Filters>(NO_FILTERS);
  const list = useCourseDocuments(courseId);

  const selectCourse = (id: string) => {
    setParams({ course: id });
    setPanelOpen(false);
    setFilters(NO_FILTERS);
    setSearch('');
  };
  const openDocument = (id: string, at: TextFocus | null = null) => {
    setParams((p) => {
      const next = new URLSearchParams(p);
      next.set('doc', id);
      return next;
    });
    setFocus(at);
    setPanelOpen(true);
  };
  const { view, upload, dismissError } = useDocumentUpload(courseId, openDocument);

  const documents = useMemo(() => list.data?.documents ?? [], [list.data]);
  const shown = useMemo(() => applyFilters(documents, filters, search), [documents, filters, search]);
  const canvas = list.data?.canvas;

  return (
    <>
      <PageHeader title={course ? MSG.courses.documentsTitle(course.name) : MSG.courses.courseDocuments}>
        {documentId && !panelOpen && (
          <Button variant="light" leftSection={<Eye size={16} aria-hidden />} onClick={() => setPanelOpen(true)}>
            {MSG.courses.viewDocument}
          </Button>
        )}
      </PageHeader>
      <Grid gap="md">
        <Grid.Col span={{ base: 12, md: 3 }}>
          <CourseSidebar courses={courses} selected={courseId} onSelect={selectCourse} />
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 9 }}>
          {!courseId ? (
            <Paper withBorder p="xl">
              <Text c="dimmed" ta="center">
                {MSG.courses.selectCourse}
              </Text>
            </Paper>
          ) : (
            <Stack gap="sm">
              <Group gap="sm" wrap="wrap" align="flex-end">
                <TextInput
                  aria-label={MSG.courses.search}
                  placeholder={MSG.courses.searchPlaceholder}
                  leftSection={<Search size={16} aria-hidden />}
                  value={search}
                  onChange={(e) => setSearch(e.currentTarget.value)}
                  style={{ flex: '1 1 220px' }}
                />
                <Button
                  variant={showFilters ? 'filled' : 'default'}
                  leftSection={<Filter size={16} aria-hidden />}
                  onClick={() => setShowFilters((s) => !s)}
                  aria-pressed={showFilters}
                >
                  {MSG.courses.filter}
                </Button>
                <FileButton onChange={(f) => f && void upload(f)}>
                  {(props) => (
                    <Button {...props} leftSection={<Upload size={16} aria-hidden />} loading={view.progress !== null}>
                      {MSG.courses.uploadDocument}
                    </Button>
                  )}
                </FileButton>
              </Group>
              {showFilters && <DocumentFilters documents={documents} filters={filters} onChange={setFilters} />}
              {view.progress !== null && (
                <Stack gap={4}>
                  <Text size="sm">{MSG.courses.uploading(view.fileName ?? '')}</Text>
                  <Progress value={Math.round(view.progress * 100)} aria-label={MSG.courses.uploadProgress} animated />
                </Stack>
              )}
              {view.error && (
                <Alert color="red" role="alert" withCloseButton onClose={dismissError} closeButtonLabel="Dismiss">
                  {view.error}
                </Alert>
              )}
              {view.ocrPending && (
                <Alert color="blue" role="status">
                  {MSG.courses.ocrMessage}
                </Alert>
              )}
              {view.ocrSuccess && (
                <Alert color="green" role="status" icon={<CircleCheck size={18} />}>
                  {MSG.courses.ocrSuccess}
                </Alert>
              )}
              {canvas && !canvas.connected && (
                <Alert color="indigo" variant="light" icon={<PlugZap size={18} />}>
                  <Group justify="space-between" gap="sm">
                    <Text size="sm">{MSG.courses.connectCanvasPrompt}</Text>
                    <Button component={Link} to={ROUTES.profile} size="xs">
                      {MSG.courses.connectCanvas}
                    </Button>
                  </Group>
                </Alert>
              )}
              {canvas?.error && (
                <Alert color={canvas.error.kind === 'forbidden' ? 'orange' : 'red'} role="alert">
                  {canvas.error.messages.map((m) => (
                    <Text key={m} size="sm">
                      {m}
                    </Text>
                  ))}
                </Alert>
              )}
              <LoadingWrapper
                loading={list.isPending}
                error={list.error ? new Error(MSG.courses.loadFailed) : null}
                message={MSG.courses.gathering}
              >
                {documents.length === 0 ? (
                  <Paper withBorder p="lg">
                    <Text c="dimmed" ta="center">
                      {MSG.courses.noDocuments}
                    </Text>
                  </Paper>
                ) : shown.length === 0 ? (
                  <Paper withBorder p="lg">
                    <Text c="dimmed" ta="center">
                      {MSG.courses.noMatches}
                    </Text>
                    <Anchor
                      component="button"
                      type="button"
                      size="sm"
                      display="block"
                      mx="auto"
                      onClick={() => {
                        setFilters(NO_FILTERS);
                        setSearch('');
                      }}
                    >
                      {MSG.courses.clearFilters}
                    </Anchor>
                  </Paper>
                ) : (
                  <DocumentList documents={shown} selectedId={documentId} onOpen={(id) => openDocument(id)} />
                )}
              </LoadingWrapper>
              <TextMatches courseId={courseId} query={debounced} onOpen={openDocument} />
            </Stack>
          )}
        </Grid.Col>
      </Grid>
      <DocumentPanel documentId={documentId} opened={panelOpen} onClose={() => setPanelOpen(false)} focus={focus} />
    </>
  );
}
