// The flashcards feature's public entry (its page is loaded by the router).
export { FlashcardsDueBadge } from './due-badge.tsx';
