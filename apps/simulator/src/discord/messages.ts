import { z } from 'zod';
import { emptyMessage, invalidForm } from './errors.js';
import { newSnowflake } from './snowflake.js';
import type { DiscordState } from './state.js';
import type { SimMessage } from './types.js';
import { parseBody } from './validate.js';

/** Discord's embed limits (docs: Message resource → Embed limits); other embed fields pass unchecked. */
const embedSchema = z.looseObject({
  title: z.string().max(256).nullish(),
  description: z.string().max(4096).nullish(),
  fields: z
    .array(z.looseObject({ name: z.string().max(256), value: z.string().max(1024) }))
    .max(25)
    .nullish(),
  footer: z.looseObject({ text: z.string().max(2048) }).nullish(),
  author: z.looseObject({ name: z.string().max(256) }).nullish(),
});
type Embed = z.infer<typeof embedSchema>;

/** Characters Discord counts toward the 6,000 a message's embeds may hold together. */
const embedSize = (e: Embed) =>
  (e.title?.length ?? 0) +
  (e.description?.length ?? 0) +
  (e.fields ?? []).reduce((n, f) => n + f.name.length + f.value.length, 0) +
  (e.footer?.text.length ?? 0) +
  (e.author?.name.length ?? 0);

export const MAX_EMBEDS_SIZE = 6000;

/**
 * The message fields the simulator keeps (content, embeds, components, flags, nonce); others are accepted and
 * dropped. A nonce is an integer or a string of at most 25 characters, as Discord's spec says.
 */
export const messageBody = z.looseObject({
  content: z.string().max(2000).nullish(),
  embeds: z.array(embedSchema).max(10).nullish(),
  components: z.array(z.unknown()).max(40).nullish(),
  flags: z.number().int().nonnegative().nullish(),
  nonce: z.union([z.number().int(), z.string().max(25)]).nullish(),
  enforce_nonce: z.boolean().nullish(),
});
export type MessageBody = z.infer<typeof messageBody>;

export const EPHEMERAL = 1 << 6;

export function parseMessage(body: unknown, opts: { allowEmpty?: boolean } = {}): MessageBody {
  const parsed = parseBody(messageBody, body);
  const size = (parsed.embeds ?? []).reduce((n, e) => n + embedSize(e), 0);
  // Discord's own code and sentence for this case (the per-field limits use the ordinary length errors).
  if (size > MAX_EMBEDS_SIZE)
    throw invalidForm({
      embeds: ['MAX_EMBED_SIZE_EXCEEDED', `Embed size exceeds maximum size of ${MAX_EMBEDS_SIZE}`],
    });
  const empty = !parsed.content && !parsed.embeds?.length && !parsed.components?.length;
  if (empty && !opts.allowEmpty) throw emptyMessage();
  return parsed;
}

/** Embeds come back with `type: "rich"` like Discord fills in. */
const normalizeEmbeds = (embeds: MessageBody['embeds']) =>
  (embeds ?? []).map((e) => ({ type: 'rich', ...e }) as Record<string, unknown>);

export function createMessage(
  input: MessageBody,
  where: {
    channelId: string;
    guildId: string | null;
    authorId: string;
    webhookId?: string;
    interactionId?: string;
  },
): SimMessage {
  const message: SimMessage = {
    id: newSnowflake(),
    channelId: where.channelId,
    guildId: where.guildId,
    authorId: where.authorId,
    content: input.content ?? '',
    embeds: normalizeEmbeds(input.embeds),
    components: input.components ?? [],
    flags: (input.flags ?? 0) & EPHEMERAL,
    ...(input.nonce != null ? { nonce: input.nonce } : {}),
    timestamp: new Date().toISOString(),
    editedTimestamp: null,
    ...(where.webhookId ? { webhookId: where.webhookId } : {}),
    ...(where.interactionId ? { interactionId: where.interactionId } : {}),
  };
  return message;
}

/** Applies an edit (PATCH): only fields present change. */
export function editMessage(message: SimMessage, input: MessageBody): void {
  if (input.content !== undefined) message.content = input.content ?? '';
  if (input.embeds !== undefined) message.embeds = normalizeEmbeds(input.embeds);
  if (input.components !== undefined) message.components = input.components ?? [];
  message.editedTimestamp = new Date().toISOString();
}

/** How long Discord remembers a nonce for `enforce_nonce` ("the past few minutes"; the shorter reading). */
export const NONCE_WINDOW_MS = 2 * 60_000;

/**
 * `enforce_nonce` as Discord does it: when the same author created a message with the same nonce in the past
 * few minutes, that message is answered and no new one is created.
 */
export function messageWithNonce(
  state: DiscordState,
  authorId: string,
  input: MessageBody,
): SimMessage | null {
  if (!input.enforce_nonce || input.nonce == null) return null;
  const seen = state.messageNonces.get(`${authorId}:${input.nonce}`);
  if (!seen || Date.now() - seen.at > NONCE_WINDOW_MS / state.timeScale) return null;
  return state.channelMessages(seen.channelId).find((m) => m.id === seen.messageId) ?? null;
}

/** Remembers a new message's nonce for `enforce_nonce` (old entries are forgotten as new ones come). */
export function rememberNonce(state: DiscordState, message: SimMessage): void {
  if (message.nonce === undefined) return;
  const now = Date.now();
  for (const [key, seen] of state.messageNonces)
    if (now - seen.at > NONCE_WINDOW_MS / state.timeScale) state.messageNonces.delete(key);
    else break;
  state.messageNonces.set(`${message.authorId}:${message.nonce}`, {
    messageId: message.id,
    channelId: message.channelId,
    at: now,
  });
}

/** Stores a visible message in its channel's history. */
export function postToChannel(state: DiscordState, message: SimMessage): void {
  state.channelMessages(message.channelId).push(message);
  const found = state.channel(message.channelId);
  if (found) found.channel.lastMessageId = message.id;
}
