import { z } from 'zod';

/** The error body of contract/errors.ts ApiErrorBody, as a schema for the OpenAPI document. */
export const ApiErrorSchema = z.object({
  message: z.string(),
  code: z.string(),
  fields: z.record(z.string(), z.string()).optional(),
});

/** `response` entries documenting which error statuses a route can answer. */
export function errorResponses<S extends number>(...statuses: S[]): Record<S, typeof ApiErrorSchema> {
  return Object.fromEntries(statuses.map((status) => [status, ApiErrorSchema])) as Record<S, typeof ApiErrorSchema>;
}
