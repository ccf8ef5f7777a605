/** A VRChat call that failed in a way the adapter does not map to a product outcome. */
export class VrchatError extends Error {
  constructor(
    /**
     * HTTP status; 503 when VRChat is unreachable or we are not logged in, 429 when it rate limits us past
     * our retries or the caller's deadline (then with retryAfterSeconds; routes answer 503 + Retry-After).
     */
    readonly status: number,
    message: string,
    /** Set when VRChat is rate limiting us: seconds until a request is expected to go again. */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
    this.name = 'VrchatError';
  }
}

// VRChat writes some punctuation with look-alike letters (ǃ ․ ˸) and JSON-quotes some messages.
const lookAlikes: Record<string, string> = { '\u01c3': '!', '\u2024': '.', '\u02f8': ':' };

/** The human text of a VRChat error message, comparable with plain ASCII patterns. */
export function normalizeMessage(raw: unknown): string {
  let text = typeof raw === 'string' ? raw : raw === undefined ? '' : JSON.stringify(raw);
  if (text.startsWith('"') && text.endsWith('"')) {
    try {
      text = String(JSON.parse(text));
    } catch {
      // Not JSON after all; keep the quotes.
    }
  }
  return text.replace(/[\u01c3\u2024\u02f8]/g, (c) => lookAlikes[c] ?? c).trim();
}

/** The message inside VRChat's `{"error":{"message":…}}` envelope, or a short description of the body. */
export function messageOf(body: unknown, status: number): string {
  if (body && typeof body === 'object') {
    const error = (body as { error?: unknown }).error;
    if (error && typeof error === 'object' && 'message' in error)
      return normalizeMessage((error as { message: unknown }).message);
    if ('message' in body) return normalizeMessage((body as { message: unknown }).message);
  }
  // 5xx bodies are often HTML from a proxy; their text says nothing useful.
  if (typeof body === 'string' && body && !body.trimStart().startsWith('<'))
    return normalizeMessage(body.slice(0, 200));
  return `VRChat answered HTTP ${status}`;
}
