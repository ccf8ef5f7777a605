import { Button, Code, CopyButton, Group, Paper, Stack, Text } from '@mantine/core';
import { usePublicConfig } from '../../../api/publicConfig';
import { EntityHeader } from '../../../components/EntityHeader';
import { ExternalLinkButton } from '../../../components/ExternalLinkButton';
import { notify } from '../../../components/toasts';
import { VrchatSlowNotice } from '../../../lib/vrchat-wait';
import { useCheckGroupLink } from '../api/checkGroupLink';
import type { GroupLinkInfo } from '../api/startGroupLink';
import { groupInvitesUrl, groupPageUrl } from '../groupId';
import { linkFailureText } from '../linkErrors';
import { BotAccountNote } from './BotAccountNote';
import { CheckCodeDialog } from './CheckCodeDialog';

interface Props {
  guildId: string;
  info: GroupLinkInfo;
  onBack: () => void;
}

/** Step 1: the group and its link code, to be put into the group's description. */
export function LinkingStep({ guildId, info, onBack }: Props) {
  const check = useCheckGroupLink(guildId);
  const vrchatWebUrl = usePublicConfig()?.vrchatWebUrl;
  const pageUrl = groupPageUrl(vrchatWebUrl, info.id);

  const checkCode = () =>
    check.mutate(info.id, {
      onError: (error) => notify({ type: 'error', message: linkFailureText(error, 'Error while linking') }),
    });

  return (
    <Paper withBorder p="lg" maw={640}>
      <Stack>
        <EntityHeader icon={info.iconUrl} name={info.name} subtitle="Linking Group" />
        <Text size="sm">
          Put this link code into the group's description, then press Check Code. You may remove it from the
          description once the group is linked.
        </Text>
        <Group>
          <Code fz="lg" aria-label="Link code">
            {info.linkCode}
          </Code>
          <CopyButton value={info.linkCode}>
            {({ copied, copy }) => (
              <Button size="xs" variant="light" onClick={copy}>
                {copied ? 'Copied' : 'Copy'}
              </Button>
            )}
          </CopyButton>
        </Group>
        <BotAccountNote account={info.botAccount} tense="will serve" />
        <Group>
          <ExternalLinkButton href={pageUrl} size="sm">
            Open Group Page
          </ExternalLinkButton>
          <Button onClick={checkCode} loading={check.isPending}>
            Check Code
          </Button>
          <Button variant="subtle" onClick={onBack}>
            Back
          </Button>
        </Group>
        <VrchatSlowNotice pending={check.isPending} />
      </Stack>
      {check.data && (
        <CheckCodeDialog
          guildId={guildId}
          groupId={info.id}
          found={check.data.status === 'CodeFound'}
          invitesUrl={groupInvitesUrl(vrchatWebUrl, info.id)}
          botName={info.botAccount?.displayName}
          onClose={check.reset}
        />
      )}
    </Paper>
  );
}
