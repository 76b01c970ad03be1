import { ThemeIcon } from '@mantine/core';
import { File, FileImage, FileSpreadsheet, FileText, FileVideo, FileAudio, Presentation } from 'lucide-react';
import type { DocumentType } from '@studybuddy/shared/documents';

const ICONS = {
  document: { icon: FileText, color: 'blue' },
  presentation: { icon: Presentation, color: 'orange' },
  spreadsheet: { icon: FileSpreadsheet, color: 'green' },
  video: { icon: FileVideo, color: 'grape' },
  audio: { icon: FileAudio, color: 'pink' },
  image: { icon: FileImage, color: 'teal' },
  other: { icon: File, color: 'gray' },
} as const;

/** The icon of a document type (requirements §2: an icon by type). */
export function TypeIcon({ type, size = 36 }: { type: DocumentType; size?: number }) {
  const { icon: Icon, color } = ICONS[type];
  return (
    <ThemeIcon size={size} radius="md" variant="light" color={color} aria-hidden>
      <Icon size={Math.round(size * 0.55)} />
    </ThemeIcon>
  );
}
