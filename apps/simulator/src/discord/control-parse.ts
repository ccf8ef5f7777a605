import { z } from 'zod';
import { ControlError } from './errors.js';

/** Shared by the control route modules: ids and body parsing with plain `{message}` errors. */
export const snowflake = z.string().regex(/^\d{1,20}$/);

export function parse<S extends z.ZodType>(schema: S, body: unknown): z.infer<S> {
  const result = schema.safeParse(body ?? {});
  if (!result.success) throw new ControlError(400, z.prettifyError(result.error));
  return result.data;
}
