import { Alert, Center, Loader, type MantineSpacing } from '@mantine/core';
import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
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

/**
 * A read's answer: the spinner while it is pending, the failure when it failed, else what `children` makes of
 * its data.
 */
export function Loaded<T>({
  query,
  loading,
  failed,
  py,
  children,
}: {
  query: UseQueryResult<T>;
  /** Names what loads, for screen readers. */
  loading: string;
  /** Says what could not load. */
  failed: string;
  py: MantineSpacing | number;
  children: (data: T) => ReactNode;
}) {
  if (query.isPending) return <Loading label={loading} py={py} />;
  if (query.isError) return <LoadFailed title={failed} error={query.error} />;
  return children(query.data);
}
