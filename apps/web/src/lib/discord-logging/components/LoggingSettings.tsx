import { Alert, Button, Checkbox, Group, NativeSelect, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { errorMessage } from '../../../api/errors';
import { notify } from '../../../components/toasts';
import { useGuildChannels } from '../api/guildChannels';
import {
  type LogEventType,
  type LoggingConfig,
  useLoggingConfig,
  useUpdateLoggingConfig,
} from '../api/loggingConfig';

interface Props {
  guildId: string;
}

/** The Management tab's 'Logging to Discord' section: the channel the bot posts to and which events it posts. */
export function LoggingSettings({ guildId }: Props) {
  const config = useLoggingConfig(guildId);
  const channels = useGuildChannels(guildId);
  return (
    <>
      {config.isPending || channels.isPending ? (
        <Text>Loading...</Text>
      ) : config.isError || channels.isError ? (
        <Alert color="red" variant="light" role="alert">
          {errorMessage(config.error ?? channels.error, 'Failed to load the logging settings.')}
        </Alert>
      ) : (
        <LoggingForm guildId={guildId} config={config.data} channels={channels.data.channels} />
      )}
    </>
  );
}

function LoggingForm({
  guildId,
  config,
  channels,
}: Props & { config: LoggingConfig; channels: { id: string; name: string }[] }) {
  const [channelId, setChannelId] = useState(config.channelId ?? '');
  const [eventTypes, setEventTypes] = useState<LogEventType[]>(config.eventTypes);
  const save = useUpdateLoggingConfig(guildId);
  // A stored channel the bot can no longer post in stays visible, so the change is deliberate.
  const known = channels.some((c) => c.id === config.channelId);
  const options = [
    { value: '', label: 'None (logging off)' },
    ...(config.channelId && !known
      ? [{ value: config.channelId, label: `Unavailable (${config.channelId})` }]
      : []),
    ...channels.map((c) => ({ value: c.id, label: `#${c.name}` })),
  ];
  const submit = () =>
    save.mutate(
      { channelId: channelId || null, eventTypes },
      {
        onSuccess: () => notify({ type: 'success', message: 'Logging settings saved.' }),
        onError: (err) =>
          notify({ type: 'error', message: errorMessage(err, 'Failed to save the logging settings.') }),
      },
    );
  return (
    <Stack>
      {config.problem && (
        <Alert color="yellow" variant="light" role="alert" title="Posts were dropped">
          {config.problem.message}
        </Alert>
      )}
      <NativeSelect
        label="Channel"
        description="Only text channels the bot can post in are offered."
        data={options}
        value={channelId}
        onChange={(e) => setChannelId(e.currentTarget.value)}
      />
      <Stack gap="xs" role="group" aria-label="Events to post">
        <Text size="sm" fw={500}>
          Events to post
        </Text>
        {config.eventTypeChoices.map((choice) => (
          <Checkbox
            key={choice.id}
            label={choice.label}
            checked={eventTypes.includes(choice.id)}
            onChange={(e) => {
              const on = e.currentTarget.checked;
              setEventTypes((now) => (on ? [...now, choice.id] : now.filter((x) => x !== choice.id)));
            }}
          />
        ))}
      </Stack>
      <Group justify="flex-end">
        <Button onClick={submit} loading={save.isPending}>
          Save
        </Button>
      </Group>
    </Stack>
  );
}
