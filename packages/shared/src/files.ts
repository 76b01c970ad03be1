import { z } from 'zod';

/** Where uploads go and where stored files are read (one origin, session cookie). */
export const FILES_API = {
  /** Single multipart request (field `file`), for files up to LIMITS.resumableThresholdBytes. */
  direct: (target: string) => `/api/uploads/${encodeURIComponent(target)}`,
  /** tus 1.0 endpoint for larger files; Upload-Metadata carries `target`, `filename`, `filetype` and the target's params. */
  resumable: '/api/resumable',
  /** The stored file of a finished resumable upload (when the last response was lost). */
  resumableResult: (uploadUrl: string) => `${uploadUrl.replace(/\/$/, '')}/result`,
  /** Serving prefix: a stored object `fullPath` is read at `/api/files/<fullPath>`. */
  filesPrefix: '/api/files/',
} as const;

/** Upload targets the server knows (features register them; these are the ones of the profile). */
export const UPLOAD_TARGETS = {
  profileImage: 'profile-image',
} as const;

/** What the server answers for a stored upload (multipart 201, or the final tus PATCH 200). */
export const uploadedFileSchema = z.object({
  url: z.string(),
  path: z.string(),
  name: z.string(),
  size: z.number().int().nonnegative(),
  contentType: z.string(),
  md5Hash: z.string(),
});
export type UploadedFile = z.infer<typeof uploadedFileSchema>;

export const uploadResponseSchema = z.object({ file: uploadedFileSchema });
export type UploadResponse = z.infer<typeof uploadResponseSchema>;

export const fileUrl = (fullPath: string) =>
  FILES_API.filesPrefix + fullPath.split('/').map(encodeURIComponent).join('/');

/** The stored object path of a `/api/files/…` URL, or null for any other address. */
export function filePathOfUrl(url: string): string | null {
  if (!url.startsWith(FILES_API.filesPrefix)) return null;
  try {
    return url
      .slice(FILES_API.filesPrefix.length)
      .split('/')
      .map((s) => decodeURIComponent(s))
      .join('/');
  } catch {
    return null;
  }
}
