import { Modal } from '@mantine/core';
import { AuditLogView } from './AuditLogView';

/** 'View Audit Log': the audit log full screen, loaded only while open. */
export function AuditLogDialog({
  guildId,
  opened,
  onClose,
}: {
  guildId: string;
  opened: boolean;
  onClose: () => void;
}) {
  return (
    <Modal opened={opened} onClose={onClose} title="Audit Log" fullScreen>
      {opened && <AuditLogView guildId={guildId} />}
    </Modal>
  );
}
