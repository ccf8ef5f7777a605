import { Anchor, Text } from '@mantine/core';
import type { Schemas } from '../../../api/client';
import { usePublicConfig } from '../../../api/publicConfig';
import { userPageUrl } from '../groupId';

interface Props {
  account: Schemas['BotAccount'] | null | undefined;
  /** 'serves': a linked group; 'will serve': a group being linked. */
  tense: 'serves' | 'will serve';
}

/**
 * Which of the bot's VRChat accounts serves the group (each serves at most 100 groups) and how to add it:
 * the account must be a member, invited or accepted by the group's managers when the group is not open.
 */
export function BotAccountNote({ account, tense }: Props) {
  const url = userPageUrl(usePublicConfig()?.vrchatWebUrl, account?.userId);
  if (!account) return null;
  return (
    <Text size="sm" data-testid="bot-account">
      The bot's VRChat account{' '}
      {url ? (
        <Anchor href={url} target="_blank" rel="noopener noreferrer">
          {account.displayName}
        </Anchor>
      ) : (
        account.displayName
      )}{' '}
      {tense === 'serves' ? 'serves this group' : 'will serve this group'}. It must be a member of the group:
      if the group is not open, invite {account.displayName} to it or accept its join request.
    </Text>
  );
}
