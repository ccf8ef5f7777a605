const PATH_PARAM = /\{([^{}]+)\}/g;
const METHODS = ['GET', 'PUT', 'POST', 'DELETE', 'OPTIONS', 'HEAD', 'PATCH', 'TRACE'] as const;

/** The operationId when the OpenAPI document names one, else `METHOD /path`. */
export function operationName(method: string, path: string): string {
  return __VRCLINK_OPERATION_IDS__[`${method} ${path}`] ?? `${method} ${path}`;
}

/** Throws the spec's error when a `{param}` of the path template is null or undefined. */
export function assertPathParams(
  method: string,
  path: string,
  values: Record<string, unknown> | undefined,
): void {
  for (const [, name] of path.matchAll(PATH_PARAM)) {
    if (values?.[name] === null || values?.[name] === undefined) {
      throw new Error(
        `Required parameter ${name} was null or undefined when calling ${operationName(method, path)}`,
      );
    }
  }
}

type Init = { params?: { path?: Record<string, unknown> } } | undefined;
type Call = (path: string, init?: Init) => Promise<unknown>;

/** Wraps each method of an openapi-fetch client so a missing path parameter fails before sending. */
export function withRequiredPathParams<C extends object>(client: C): C {
  const wrapped = { ...client } as Record<string, unknown>;
  for (const method of METHODS) {
    const call = (client as Record<string, unknown>)[method] as Call | undefined;
    if (!call) continue;
    wrapped[method] = async (path: string, init?: Init) => {
      assertPathParams(method, path, init?.params?.path);
      return call(path, init);
    };
  }
  return wrapped as C;
}
