import { z } from 'zod';
import { snowflake } from '../../../http/params.js';
import { logEventTypes } from '../../../kernel/log-event-types.js';

export const guildParams = z.object({ guildId: snowflake });

export const logEventType = z.enum(logEventTypes, {
  message: `Event types are ${logEventTypes.join(', ')}.`,
});

export const guildChannels = z.object({
  channels: z.array(z.object({ id: z.string(), name: z.string() })),
});
z.globalRegistry.add(guildChannels, { id: 'GuildChannels' });

export const loggingConfig = z.object({
  /** null: logging is off. */
  channelId: z.string().nullable(),
  eventTypes: z.array(logEventType),
  /** Every kind a server can post, with the dialog's label. */
  eventTypeChoices: z.array(z.object({ id: logEventType, label: z.string() })),
  /** What the last delivery met (the channel deleted, or closed to the bot); cleared by saving again. */
  problem: z
    .object({ kind: z.enum(['channelGone', 'cannotPost']), message: z.string(), at: z.string() })
    .nullable(),
});
z.globalRegistry.add(loggingConfig, { id: 'LoggingConfig' });

export const loggingConfigUpdate = z
  .object({
    channelId: snowflake.nullable().optional(),
    eventTypes: z.array(logEventType).max(logEventTypes.length).optional(),
  })
  .strict()
  .refine((b) => b.channelId !== undefined || b.eventTypes !== undefined, {
    message: 'Give channelId, eventTypes or both.',
  });
export type LoggingConfigUpdate = z.infer<typeof loggingConfigUpdate>;
