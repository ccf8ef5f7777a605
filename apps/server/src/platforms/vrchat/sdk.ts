import '../../polyfills.js';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { VRChat, VRChatError } from 'vrchat';
import type { AppConfig } from '../../kernel/config.js';
import { serverDir } from '../../server-dir.js';
import type { SessionKeyvStore } from './cookie-store.js';
import { messageOf } from './errors.js';

const serverVersion = (
  JSON.parse(readFileSync(join(serverDir, 'package.json'), 'utf8')) as { version: string }
).version;

/**
 * Builds the SDK client. Credentials are given but `optimistic: false`, so it never logs in by itself at
 * construction; it logs in only when a request answers 401, and every such login passes our transport's
 * login gate. Cookies live in `cookieStore`, so a restart reuses the session.
 */
export function createSdk(opts: {
  config: AppConfig['vrchat'];
  cookieStore: SessionKeyvStore;
  fetch: typeof fetch;
  version?: string;
}): VRChat {
  const { config } = opts;
  return withoutNewProcessListeners(
    () =>
      new VRChat({
        baseUrl: config.apiUrl,
        fetch: opts.fetch,
        application: { name: 'VRCLink', version: opts.version ?? serverVersion, contact: config.contact },
        authentication: {
          credentials: {
            username: config.username,
            password: config.password,
            totpSecret: config.totpSecret || undefined,
          },
          optimistic: false,
        },
        pipeline: { baseUrl: config.pipelineUrl },
        keyv: opts.cookieStore,
      }),
  );
}

/**
 * The SDK adds process listeners per instance ('beforeExit', and 'SIGINT', which would keep Ctrl-C from
 * ending the process). The adapter closes explicitly instead, so they are removed right away.
 */
function withoutNewProcessListeners<T>(create: () => T): T {
  const events = ['beforeExit', 'SIGINT'] as const;
  const before = new Map(events.map((e) => [e, new Set(process.listeners(e))]));
  const value = create();
  for (const e of events) {
    for (const listener of process.listeners(e))
      if (!before.get(e)?.has(listener)) process.removeListener(e, listener);
  }
  return value;
}

/** The SDK's cookie jar as a Cookie header; reads a private method, so it degrades to "leave as is". */
export async function cookieHeaderOf(sdk: VRChat | undefined): Promise<string | undefined> {
  const jar = sdk as unknown as { getCookies?: () => Promise<{ name: string; value: string }[]> } | undefined;
  if (typeof jar?.getCookies !== 'function') return undefined;
  const cookies = await jar.getCookies.call(sdk);
  return cookies.length ? cookies.map((c) => `${c.name}=${c.value}`).join('; ') : undefined;
}

/** What one SDK call came back with, reduced to what the adapter branches on. */
export type Outcome<T> = { ok: true; data: T } | { ok: false; status: number; message: string };

/** Runs one SDK call without letting it throw; every failure becomes a status and VRChat's message. */
export async function outcomeOf<T>(
  run: () => Promise<{ data?: T; error?: unknown; response?: Response }>,
): Promise<Outcome<T>> {
  try {
    const result = await run();
    if (result.error === undefined && result.response?.ok) return { ok: true, data: result.data as T };
    const status = result.response?.status ?? 503;
    const raw = result.error instanceof VRChatError ? result.error.message : result.error;
    return { ok: false, status, message: messageOf(raw, status) };
  } catch (err) {
    return {
      ok: false,
      status: 500,
      message: `VRChat call failed: ${(err as Error).message ?? String(err)}`,
    };
  }
}
