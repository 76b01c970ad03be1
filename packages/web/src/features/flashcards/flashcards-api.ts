import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CourseDocumentsResponse } from '@studybuddy/shared/documents-api';
import type {
  CardInput,
  DeckDetail,
  DeckList,
  DeckSummary,
  FlashcardSettings,
  Generated,
  GenerateInput,
  Quiz,
  QuizResult,
  RatingName,
  Reviewed,
  StudyBatch,
} from '@studybuddy/shared/flashcards';
import type { GroupList } from '@studybuddy/shared/groups-responses';
import { api } from '../../lib/api.ts';

const enc = encodeURIComponent;
export const FLASHCARDS_KEY = ['flashcards'] as const;
const DUE_KEY = [...FLASHCARDS_KEY, 'due'] as const;
const DECKS_KEY = [...FLASHCARDS_KEY, 'decks'] as const;
const deckKey = (id: string) => [...FLASHCARDS_KEY, 'deck', id] as const;

/** Cards due across the student's decks (the sidebar's count), refreshed every minute. */
export const useDue = () =>
  useQuery({
    queryKey: DUE_KEY,
    queryFn: async () => (await api<{ due: number }>('/api/flashcards/due')).due,
    refetchInterval: 60_000,
  });

export const useDecks = () => useQuery({ queryKey: DECKS_KEY, queryFn: () => api<DeckList>('/api/flashcards/decks') });

export const useDeck = (id: string | null) =>
  useQuery({
    queryKey: deckKey(id ?? ''),
    queryFn: () => api<DeckDetail>(`/api/flashcards/decks/${enc(id!)}`),
    enabled: !!id,
  });

export const useSettings = () =>
  useQuery({
    queryKey: [...FLASHCARDS_KEY, 'settings'],
    queryFn: () => api<FlashcardSettings>('/api/flashcards/settings'),
  });

export const useGroups = () =>
  useQuery({ queryKey: ['groups', 'group'], queryFn: () => api<GroupList>('/api/groups?kind=group') });

export const useCourseDocuments = (courseId: string | null) =>
  useQuery({
    queryKey: ['course-documents', courseId],
    queryFn: () => api<CourseDocumentsResponse>(`/api/courses/${enc(courseId!)}/documents`),
    enabled: !!courseId,
  });

/** Every change refreshes the lists and counts (a shared deck's edit, a review, a new deck). */
function useChange<A, R>(fn: (a: A) => Promise<R>) {
  const qc = useQueryClient();
  return useMutation({ mutationFn: fn, onSuccess: () => qc.invalidateQueries({ queryKey: FLASHCARDS_KEY }) });
}

export const useGenerate = () =>
  useChange((body: GenerateInput) => api<Generated>('/api/flashcards/decks/generate', { body }));
export const useCreateDeck = () =>
  useChange((name: string) => api<DeckSummary>('/api/flashcards/decks', { body: { name } }));
export const useDeleteDeck = () =>
  useChange((id: string) => api(`/api/flashcards/decks/${enc(id)}`, { method: 'DELETE' }));
export const useAddCard = (deckId: string) =>
  useChange((body: CardInput) => api<DeckDetail>(`/api/flashcards/decks/${enc(deckId)}/cards`, { body }));
export const useEditCard = () =>
  useChange(({ id, ...body }: CardInput & { id: string }) =>
    api(`/api/flashcards/cards/${enc(id)}`, { method: 'PATCH', body }),
  );
export const useDeleteCard = () =>
  useChange((id: string) => api(`/api/flashcards/cards/${enc(id)}`, { method: 'DELETE' }));
export const useShare = (deckId: string) =>
  useChange((groupId: string) =>
    api<DeckSummary>(`/api/flashcards/decks/${enc(deckId)}/shares`, { body: { groupId } }),
  );
export const useUnshare = (deckId: string) =>
  useChange((groupId: string) =>
    api<DeckSummary>(`/api/flashcards/decks/${enc(deckId)}/shares/${enc(groupId)}`, { method: 'DELETE' }),
  );
export const useCopy = () =>
  useChange((deckId: string) => api<DeckSummary>(`/api/flashcards/decks/${enc(deckId)}/copy`, { body: {} }));
export const useReview = () =>
  useChange(({ cardId, rating }: { cardId: string; rating: RatingName }) =>
    api<Reviewed>(`/api/flashcards/cards/${enc(cardId)}/review`, { body: { rating } }),
  );
export const useSaveSettings = () =>
  useChange((body: FlashcardSettings) => api<FlashcardSettings>('/api/flashcards/settings', { method: 'PUT', body }));

export const fetchStudy = (deckId: string) => api<StudyBatch>(`/api/flashcards/decks/${enc(deckId)}/study`);
export const startQuiz = (documentId: string, count: number) =>
  api<Quiz>('/api/flashcards/quizzes', { body: { documentId, count } });
export const answerQuiz = (id: string, answers: string[]) =>
  api<QuizResult>(`/api/flashcards/quizzes/${enc(id)}/answers`, { body: { answers } });
