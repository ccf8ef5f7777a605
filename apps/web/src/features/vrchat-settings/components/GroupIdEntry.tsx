import { Button, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import { groupIdIn } from '../groupId';

interface Props {
  canEdit: boolean;
  loading: boolean;
  onStart: (groupId: string) => void;
}

/** 'Group not Linked': the Group ID input; pasted text holding a grp_ id is reduced to it. */
export function GroupIdEntry({ canEdit, loading, onStart }: Props) {
  const [text, setText] = useState('');
  const groupId = groupIdIn(text);

  return (
    <Paper withBorder p="lg" maw={560}>
      <Stack>
        <Title order={2} size="h3">
          Group not Linked
        </Title>
        <Text c="dimmed" size="sm">
          Link this server to a VRChat group you manage. The Group ID is in the group page's address.
        </Text>
        <TextInput
          label="Group ID"
          placeholder="grp_00000000-0000-0000-0000-000000000000"
          value={text}
          disabled={!canEdit}
          onChange={(e) => setText(e.currentTarget.value)}
          onPaste={(e) => {
            const pasted = groupIdIn(e.clipboardData.getData('text'));
            if (!pasted) return;
            e.preventDefault();
            setText(pasted);
          }}
        />
        <Button
          disabled={!canEdit || !groupId}
          loading={loading}
          onClick={() => groupId && onStart(groupId)}
          w="fit-content"
        >
          Start Linking Group
        </Button>
      </Stack>
    </Paper>
  );
}
