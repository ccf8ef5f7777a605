import { Alert, Loader } from '@mantine/core';
import { useState } from 'react';
import {
  AUDIT_PAGE_SIZES,
  type AuditFilters,
  type AuditPosition,
  emptyAuditFilters,
  useAuditLog,
} from '../api/auditLog';
import { AuditLogFilters } from './AuditLogFilters';
import { AuditLogPager } from './AuditLogPager';
import { AuditLogTable } from './AuditLogTable';

/** The server's audit trail (Admin only), with the spec's filters and paging. */
export function AuditLogView({ guildId }: { guildId: string }) {
  const [filters, setFilters] = useState<AuditFilters>(emptyAuditFilters);
  const [position, setPosition] = useState<AuditPosition>({ page: 1 });
  const [pageSize, setPageSize] = useState<number>(AUDIT_PAGE_SIZES[0]);
  const log = useAuditLog(guildId, filters, position, pageSize);
  const { page } = position;
  // The page beside this one starts from this page's edge, so Previous and Next wait until it is shown.
  const shown = log.data && !log.isPlaceholderData ? log.data : undefined;
  const goTo = (next: number) => {
    if (next === 1) setPosition({ page: 1 });
    else if (next === page + 1 && shown?.nextCursor) setPosition({ page: next, cursor: shown.nextCursor });
    else if (next === page - 1 && shown?.previousCursor)
      setPosition({ page: next, cursor: shown.previousCursor });
  };

  return (
    <>
      <AuditLogFilters
        eventTypes={log.data?.eventTypes ?? []}
        eventLabels={log.data?.eventLabels}
        onSearch={(next) => {
          setFilters(next);
          setPosition({ page: 1 });
        }}
      />
      <AuditLogPager
        page={page}
        pageSize={pageSize}
        totalCount={log.data?.totalCount ?? 0}
        canGoBack={page === 2 || Boolean(shown?.previousCursor)}
        canGoOn={Boolean(shown?.nextCursor)}
        onPage={goTo}
        onPageSize={(size) => {
          setPageSize(size);
          setPosition({ page: 1 });
        }}
      />
      {log.isError ? (
        <Alert color="red" variant="light" role="alert">
          Failed to load the audit log.
        </Alert>
      ) : log.isPending ? (
        <Loader aria-label="Loading audit log" />
      ) : (
        <AuditLogTable entries={log.data.auditLogs} />
      )}
    </>
  );
}
