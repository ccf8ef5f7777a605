import { Alert, Center, Loader, type MantineSpacing } from '@mantine/core';
import { errorMessage } from '../api/errors';

/** A centred spinner while a read is pending; `label` names what loads (screen readers say it). */
export function Loading({ label, py }: { label: string; py: MantineSpacing | number }) {
  return (
    <Center py={py}>
      <Loader aria-label={label} />
    </Center>
  );
}

/** A read that failed: `title` says what could not load, the body the server's sentence (or 'Please try again.'). */
export function LoadFailed({ title, error }: { title: string; error: unknown }) {
  return (
    <Alert color="red" variant="light" role="alert" title={title}>
      {errorMessage(error, 'Please try again.')}
    </Alert>
  );
}
