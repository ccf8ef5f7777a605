import { messageOf } from './errors.js';
import type { LoginGate } from './login-gate.js';
import type { StatusTracker } from './status.js';

/** What a request to VRChat is, as far as logins and 2FA are concerned. */
export type Kind = 'login' | 'totp' | 'other-2fa' | 'api';

export interface ObserveDeps {
  gate: LoginGate;
  status: StatusTracker;
  hasTotpSecret: boolean;
}

/** A reply we make up instead of contacting VRChat, in VRChat's error envelope. */
export function localError(status: number, message: string): Response {
  return Response.json(
    { error: { message, status_code: status } },
    { status, headers: { 'x-vrclink-local': '1' } },
  );
}

export function classify(req: Request): Kind {
  const path = new URL(req.url).pathname;
  if (
    req.method === 'GET' &&
    path.endsWith('/auth/user') &&
    req.headers.get('authorization')?.startsWith('Basic ')
  )
    return 'login';
  if (req.method === 'POST' && path.endsWith('/auth/twofactorauth/totp/verify')) return 'totp';
  if (req.method === 'POST' && /\/auth\/twofactorauth\/[^/]+\/verify$/.test(path)) return 'other-2fa';
  return 'api';
}

export async function bodyOf(res: Response): Promise<unknown> {
  const text = await res
    .clone()
    .text()
    .catch(() => '');
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

export function describe(err: unknown): string {
  const e = err as { name?: string; message?: string; cause?: { code?: string; message?: string } };
  if (e?.name === 'TimeoutError') return 'the request timed out';
  return e?.cause?.code ?? e?.cause?.message ?? e?.message ?? String(err);
}

/**
 * Whether a 403 means the session is no longer valid rather than "not allowed". Reports say a cookie used
 * from another address fails with 401 or with 403 (platforms.md A.4); permission refusals name what is
 * refused ("You're not a member", "You can't invite that user"), never credentials, a login or a session.
 */
export function sessionRefused(message: string): boolean {
  return /credentials|not logged in|log ?in again|session/i.test(message);
}

/** Updates the status and login gate from a final (not retried) answer; may replace what the SDK sees. */
export async function observeAnswer(
  deps: ObserveDeps,
  kind: Kind,
  req: Request,
  res: Response,
): Promise<Response> {
  if (kind === 'login') {
    if (!res.ok) {
      const message = messageOf(await bodyOf(res), res.status);
      deps.gate.fail(message);
      deps.status.set('login_failed', { lastError: message });
      return res;
    }
    const body = (await bodyOf(res)) as { id?: unknown; requiresTwoFactorAuth?: string[] };
    if (Array.isArray(body?.requiresTwoFactorAuth)) {
      const methods = body.requiresTwoFactorAuth;
      if (!methods.includes('totp') || !deps.hasTotpSecret) {
        const message = deps.hasTotpSecret
          ? `VRChat asks for a ${methods.join('/')} code; the bot account needs an authenticator app (TOTP)`
          : 'VRChat asks for a two-factor code; set VRCHAT_TOTP_SECRET';
        deps.gate.fail(message);
        deps.status.set('needs_2fa', { lastError: message });
      }
      return res;
    }
    if (typeof body?.id === 'string') {
      deps.gate.succeed();
      deps.status.set('ok');
    }
    return res;
  }
  if (kind === 'totp') {
    const body = (await bodyOf(res)) as { verified?: unknown };
    if (res.ok && body?.verified === true) {
      deps.gate.succeed();
      return res;
    }
    const message = res.ok ? 'VRChat rejected the two-factor code' : messageOf(body, res.status);
    deps.gate.fail(message);
    deps.status.set('needs_2fa', { lastError: message });
    // As an error the SDK stops here and reports it, instead of treating {verified:false} as data.
    return res.ok ? localError(401, message) : res;
  }
  if (res.status === 403) {
    const message = messageOf(await bodyOf(res), 403);
    if (sessionRefused(message)) {
      // As a 401 the SDK logs in again (once, shared by every process: see shareLogins) and replays the call.
      if (deps.status.get().status === 'ok')
        deps.status.set('logged_out', { lastError: `VRChat refused the stored session: ${message}` });
      return localError(401, '"Missing Credentials"');
    }
  }
  if (res.ok) {
    const path = new URL(req.url).pathname;
    const body = path.endsWith('/auth/user')
      ? ((await bodyOf(res)) as { requiresTwoFactorAuth?: unknown })
      : undefined;
    if (Array.isArray(body?.requiresTwoFactorAuth))
      deps.status.set('needs_2fa', { lastError: 'The stored session still needs its two-factor step' });
    else deps.status.set('ok');
  } else if (res.status === 401 && deps.status.get().status === 'ok') {
    deps.status.set('logged_out', { lastError: messageOf(await bodyOf(res), 401) });
  }
  return res;
}
