import { z } from 'zod';

/** The JSON body of every failed API call. */
export const apiErrorSchema = z.object({
  error: z.object({ code: z.string(), message: z.string(), field: z.string().optional() }),
});
export type ApiError = z.infer<typeof apiErrorSchema>['error'];
