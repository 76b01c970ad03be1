import type {
  CourseworkHit,
  DocumentHit,
  GroupHit,
  MessageHit,
  PersonHit,
  SearchKind,
  SearchResults,
} from '@studybuddy/shared/search';
import { MSG } from '@studybuddy/shared/messages';

/** One result as the dialog lists it: its kind, a key unique in the list, and the hit. */
export type SearchOption =
  | { kind: 'people'; key: string; hit: PersonHit }
  | { kind: 'groups'; key: string; hit: GroupHit }
  | { kind: 'messages'; key: string; hit: MessageHit }
  | { kind: 'coursework'; key: string; hit: CourseworkHit }
  | { kind: 'documents'; key: string; hit: DocumentHit };

export interface OptionGroup {
  kind: SearchKind;
  label: string;
  /** Each option's position in the whole list (the keyboard moves through every group in turn). */
  options: { option: SearchOption; index: number }[];
}

/** The results grouped by kind, empty kinds left out, numbered in the order they are shown. */
export function groupResults(results: SearchResults | undefined): { groups: OptionGroup[]; flat: SearchOption[] } {
  if (!results) return { groups: [], flat: [] };
  const kinds: { kind: SearchKind; label: string; options: SearchOption[] }[] = [
    {
      kind: 'people',
      label: MSG.search.people,
      options: results.people.map((hit) => ({ kind: 'people', key: hit.uid, hit })),
    },
    {
      kind: 'groups',
      label: MSG.search.groups,
      options: results.groups.map((hit) => ({ kind: 'groups', key: hit.id, hit })),
    },
    {
      kind: 'messages',
      label: MSG.search.messages,
      options: results.messages.map((hit) => ({ kind: 'messages', key: hit.id, hit })),
    },
    {
      kind: 'coursework',
      label: MSG.search.coursework,
      options: results.coursework.map((hit) => ({ kind: 'coursework', key: hit.id, hit })),
    },
    {
      kind: 'documents',
      label: MSG.search.documents,
      options: results.documents.map((hit) => ({ kind: 'documents', key: `${hit.documentId}:${hit.page}`, hit })),
    },
  ];
  const flat: SearchOption[] = [];
  const groups = kinds
    .filter((k) => k.options.length > 0)
    .map((k) => ({
      kind: k.kind,
      label: k.label,
      options: k.options.map((option) => {
        flat.push(option);
        return { option, index: flat.length - 1 };
      }),
    }));
  return { groups, flat };
}
