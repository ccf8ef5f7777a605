import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, type Schemas, unwrap } from '../../../api/client';

export type Profile = Schemas['Profile'];
export type ProfileGuild = Profile['guilds'][number];
export type ProfileGroup = Profile['groups'][number];
export type LinkData = NonNullable<Profile['linkData']>;

export const profileKey = ['profile'] as const;

export const profileQuery = queryOptions({
  queryKey: profileKey,
  queryFn: () => unwrap(api.GET('/api/users/profile')),
});

export function useProfile() {
  return useQuery(profileQuery);
}
