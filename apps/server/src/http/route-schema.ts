import type { ZodTypeAny } from 'zod';
import { errorResponses } from './errors.js';

/** What one route declares itself: its name and description, its inputs, and its own (success) answers. */
type OwnRouteSchema = {
  operationId: string;
  description?: string;
  params?: ZodTypeAny;
  querystring?: ZodTypeAny;
  body?: ZodTypeAny;
  consumes?: string[];
  response: Record<number, ZodTypeAny>;
};

/** What every route of a module shares: its OpenAPI tag, the error answers it may give, and its security. */
type ModuleSchemaDefaults<Errors> = {
  tag: string;
  errors?: Errors;
  security?: Record<string, string[]>[];
};

/**
 * The schema builder for one module's routes: `route({ operationId, description, params, response: { 200: x } })`
 * gives the route options with the module's tag and security, and the error answers (`errorResponses` unless
 * the module names its own) added to the route's own answers.
 */
export function routeSchemas<Errors extends Record<number, ZodTypeAny> = typeof errorResponses>({
  tag,
  errors = errorResponses as unknown as Errors,
  security,
}: ModuleSchemaDefaults<Errors>) {
  const tags = [tag];
  return <Schema extends OwnRouteSchema>({ operationId, response, ...rest }: Schema) => ({
    schema: {
      operationId,
      tags,
      ...(security && { security }),
      ...(rest as Omit<Schema, 'operationId' | 'response'>),
      response: { ...response, ...errors } as Schema['response'] & Errors,
    },
  });
}
