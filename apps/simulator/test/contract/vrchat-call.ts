import { expect } from 'vitest';
import { call, type Res } from '../vrchat-helpers.js';
import { expectMatchesVrchatSpec } from './vrchat-spec.js';

type Opts = Parameters<typeof call>[3] & { query?: string; status?: number };

/**
 * Returns `expectContract(method, template, params, opts)`: calls the API (as `cookie` unless opts
 * say otherwise) and checks the answer against the operation's schema for the status it got.
 */
export function contractCaller(ctx: () => { base: string; cookie: string }) {
  return async function expectContract(
    method: string,
    template: string,
    params: Record<string, string>,
    opts: Opts = {},
  ): Promise<Res> {
    const { base, cookie } = ctx();
    const path = template.replace(/\{(\w+)\}/g, (_m, k: string) => encodeURIComponent(params[k]));
    const res = await call(base, method, path + (opts.query ? `?${opts.query}` : ''), { cookie, ...opts });
    if (opts.status !== undefined) expect(res.status, JSON.stringify(res.body)).toBe(opts.status);
    expectMatchesVrchatSpec(method, template, res.status, res.body);
    return res;
  };
}
