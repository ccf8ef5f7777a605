import { Alert } from '@mantine/core';

/** An action's failure shown above a dialog's content until dismissed; nothing while `message` is empty. */
export function DismissibleError({
  message,
  onDismiss,
}: {
  message: string | null | undefined;
  onDismiss: () => void;
}) {
  if (!message) return null;
  return (
    <Alert color="red" variant="light" role="alert" mb="sm" withCloseButton onClose={onDismiss}>
      {message}
    </Alert>
  );
}
