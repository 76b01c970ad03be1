/** Every stored byte of a user's documents lives under this folder (account deletion removes it). */
export const documentsFolder = (userId: string) => `documents/${userId}`;

/** A storage-safe version of a file name (letters, digits, dot, dash, underscore), at most 120 characters. */
export function safeFileName(name: string): string {
  const base = name.replace(/\\/g, '/').split('/').pop() ?? '';
  const clean = base
    .normalize('NFKD')
    .replace(/[^\w.-]+/g, '_')
    .replace(/^[._]+/, '')
    .slice(-120);
  return clean || 'file';
}

export const storagePathFor = (userId: string, documentId: string, name: string) =>
  `${documentsFolder(userId)}/${documentId}/${safeFileName(name)}`;

/** Where the files platform stores this user's course-document uploads (content-addressed). */
export const uploadsFolder = (userId: string) => `${documentsFolder(userId)}/uploads`;
