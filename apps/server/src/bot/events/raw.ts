import { type Client, Events } from 'discord.js';

/**
 * Subscribes to one gateway dispatch as Discord sent it. The member mirror reads raw dispatches: they
 * arrive for members discord.js never cached, and also when a resume replays what was missed (where
 * discord.js emits no member events).
 */
export function onDispatch<D>(client: Client, type: string, handler: (data: D) => void): () => void {
  const listener = (packet: { t?: string | null; d?: unknown }) => {
    if (packet.t === type) handler(packet.d as D);
  };
  client.on(Events.Raw, listener);
  return () => client.off(Events.Raw, listener);
}
