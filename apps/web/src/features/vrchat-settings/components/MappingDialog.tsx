import { Alert, Button, Group, Loader, Modal, Stack, Table, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import type { ReactNode } from 'react';
import { DismissibleError } from '../../../components/DismissibleError';
import { TableHead } from '../../../components/TableHead';
import { TableScroll } from '../../../components/TableScroll';
import { VrchatSlowNotice } from '../../../lib/vrchat-wait';

interface Props {
  title: string;
  columns: string[];
  loading: boolean;
  loadError: boolean;
  deleteError: string | null;
  onDismissDeleteError: () => void;
  empty: boolean;
  adding: boolean;
  onAdd: () => void;
  onClose: () => void;
  children: ReactNode;
  /** The preview of a change not saved yet, with Save and Cancel. */
  preview?: ReactNode;
}

/** The frame both role-mapping dialogs share: a table that scrolls sideways on a phone, and 'Add'. */
export function MappingDialog(props: Props) {
  const isPhone = useMediaQuery('(max-width: 36em)');
  return (
    <Modal opened onClose={props.onClose} title={props.title} size="xl" fullScreen={isPhone}>
      <DismissibleError message={props.deleteError} onDismiss={props.onDismissDeleteError} />
      {props.loading ? (
        <Stack gap="xs" align="flex-start">
          <Loader aria-label={`Loading ${props.title}`} />
          <VrchatSlowNotice pending />
        </Stack>
      ) : props.loadError ? (
        <Alert color="red" variant="light" role="alert">
          Failed to load role mappings.
        </Alert>
      ) : (
        <TableScroll label={`${props.title} table`} minWidth={560}>
          <Table>
            <TableHead columns={props.columns} />
            <Table.Tbody>{props.children}</Table.Tbody>
          </Table>
        </TableScroll>
      )}
      {!props.loading && props.empty && (
        <Text c="dimmed" my="sm">
          No role mappings yet.
        </Text>
      )}
      {props.preview}
      <Group justify="flex-end" mt="md">
        <Button loading={props.adding} disabled={props.loading || props.loadError} onClick={props.onAdd}>
          Add
        </Button>
      </Group>
    </Modal>
  );
}
