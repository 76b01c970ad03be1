import { Button, Group, Paper, Select } from '@mantine/core';
import { FilterX } from 'lucide-react';
import { DOCUMENT_TYPE_LABELS, DOCUMENT_TYPES, type DocumentType } from '@studybuddy/shared/documents';
import type { CourseDocumentDto, DocumentSource } from '@studybuddy/shared/documents-api';
import { MSG } from '@studybuddy/shared/messages';

export interface Filters {
  type: DocumentType | null;
  source: DocumentSource | null;
}

export const NO_FILTERS: Filters = { type: null, source: null };

export function applyFilters(docs: CourseDocumentDto[], filters: Filters, search: string): CourseDocumentDto[] {
  const q = search.trim().toLowerCase();
  return docs.filter(
    (d) =>
      (!filters.type || d.type === filters.type) &&
      (!filters.source || d.source === filters.source) &&
      (!q || d.name.toLowerCase().includes(q) || (d.moduleName ?? '').toLowerCase().includes(q)),
  );
}

const count = <T,>(docs: CourseDocumentDto[], pick: (d: CourseDocumentDto) => T, value: T) =>
  docs.filter((d) => pick(d) === value).length;

/** Document type and source selects with counts, and Clear Filters (requirements §2 Courses). */
export function DocumentFilters({
  documents,
  filters,
  onChange,
}: {
  documents: CourseDocumentDto[];
  filters: Filters;
  onChange: (f: Filters) => void;
}) {
  const typeOptions = [
    { value: '', label: MSG.courses.withCount(MSG.courses.allTypes, documents.length) },
    ...DOCUMENT_TYPES.filter((t) => count(documents, (d) => d.type, t) > 0 || t === filters.type).map((t) => ({
      value: t,
      label: MSG.courses.withCount(
        DOCUMENT_TYPE_LABELS[t],
        count(documents, (d) => d.type, t),
      ),
    })),
  ];
  const sourceOptions = [
    { value: '', label: MSG.courses.withCount(MSG.courses.allSources, documents.length) },
    {
      value: 'canvas',
      label: MSG.courses.withCount(
        MSG.courses.sourceCanvas,
        count(documents, (d) => d.source, 'canvas'),
      ),
    },
    {
      value: 'local',
      label: MSG.courses.withCount(
        MSG.courses.sourceUploaded,
        count(documents, (d) => d.source, 'local'),
      ),
    },
  ];
  return (
    <Paper withBorder p="sm" bg="var(--sb-surface-muted)">
      <Group align="flex-end" gap="sm" wrap="wrap">
        <Select
          label={MSG.courses.documentType}
          data={typeOptions}
          value={filters.type ?? ''}
          onChange={(v) => onChange({ ...filters, type: (v || null) as DocumentType | null })}
          allowDeselect={false}
          w={220}
        />
        <Select
          label={MSG.courses.source}
          data={sourceOptions}
          value={filters.source ?? ''}
          onChange={(v) => onChange({ ...filters, source: (v || null) as DocumentSource | null })}
          allowDeselect={false}
          w={220}
        />
        <Button
          variant="default"
          leftSection={<FilterX size={16} aria-hidden />}
          onClick={() => onChange(NO_FILTERS)}
          disabled={!filters.type && !filters.source}
        >
          {MSG.courses.clearFilters}
        </Button>
      </Group>
    </Paper>
  );
}
