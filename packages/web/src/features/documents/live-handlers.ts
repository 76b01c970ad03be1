import { realtime, type LiveHandlers } from '../../lib/realtime.ts';
import { documentKeys } from './documents-api.ts';

/** A course document changed (uploaded, processed, deleted): every documents query is refetched when on screen. */
export const documentsLive: LiveHandlers = ({ client }) =>
  realtime.on('document.changed', () => void client.invalidateQueries({ queryKey: documentKeys.all }));
