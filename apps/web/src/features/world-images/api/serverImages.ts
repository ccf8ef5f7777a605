import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../../../api/client';

export const serverImagesKey = (guildId: string) => ['world-images', guildId] as const;

const fetchServerImages = (guildId: string) =>
  unwrap(api.GET('/api/world_images/{guildId}/images', { params: { path: { guildId } } }));

export type ServerImagesResponse = Awaited<ReturnType<typeof fetchServerImages>>;
/** A server's image (the Server Images panel). */
export type WorldImage = ServerImagesResponse['images'][number];

export const serverImagesQuery = (guildId: string) =>
  queryOptions({ queryKey: serverImagesKey(guildId), queryFn: () => fetchServerImages(guildId) });

export function useServerImages(guildId: string) {
  return useQuery(serverImagesQuery(guildId));
}
