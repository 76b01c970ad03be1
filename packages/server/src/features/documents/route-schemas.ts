import { z } from 'zod';
import { courseIdSchema } from '@studybuddy/shared/documents-api';

/** What the documents routes share: their tag in the API description and their path parameters. */
export const tags = ['documents'];
export const idParams = z.object({ id: z.string().trim().min(1).max(100) });
export const courseParams = z.object({ courseId: courseIdSchema });
