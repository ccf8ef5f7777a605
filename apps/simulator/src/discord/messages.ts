import { z } from 'zod';
import { emptyMessage } from './errors.js';
import { newSnowflake } from './snowflake.js';
import type { DiscordState } from './state.js';
import type { SimMessage } from './types.js';
import { parseBody } from './validate.js';

/** The message fields the simulator keeps (content, embeds, components, flags); others are accepted and dropped. */
export const messageBody = z.looseObject({
  content: z.string().max(2000).nullish(),
  embeds: z.array(z.record(z.string(), z.unknown())).max(10).nullish(),
  components: z.array(z.unknown()).max(40).nullish(),
  flags: z.number().int().nonnegative().nullish(),
});
export type MessageBody = z.infer<typeof messageBody>;

export const EPHEMERAL = 1 << 6;

export function parseMessage(body: unknown, opts: { allowEmpty?: boolean } = {}): MessageBody {
  const parsed = parseBody(messageBody, body);
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

/** Stores a visible message in its channel's history. */
export function postToChannel(state: DiscordState, message: SimMessage): void {
  state.channelMessages(message.channelId).push(message);
  const found = state.channel(message.channelId);
  if (found) found.channel.lastMessageId = message.id;
}
