import { Alert, Loader } from '@mantine/core';
import { useState } from 'react';
import { AUDIT_PAGE_SIZES, type AuditFilters, emptyAuditFilters, useAuditLog } from '../api/auditLog';
import { AuditLogFilters } from './AuditLogFilters';
import { AuditLogPager } from './AuditLogPager';
import { AuditLogTable } from './AuditLogTable';

/** The server's audit trail (Admin only), with the spec's filters and paging. */
export function AuditLogView({ guildId }: { guildId: string }) {
  const [filters, setFilters] = useState<AuditFilters>(emptyAuditFilters);
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState<number>(AUDIT_PAGE_SIZES[0]);
  const log = useAuditLog(guildId, filters, page, pageSize);

  return (
    <>
      <AuditLogFilters
        eventTypes={log.data?.eventTypes ?? []}
        eventLabels={log.data?.eventLabels}
        onSearch={(next) => {
          setFilters(next);
          setPage(1);
        }}
      />
      <AuditLogPager
        page={page}
        pageSize={pageSize}
        totalCount={log.data?.totalCount ?? 0}
        onPage={setPage}
        onPageSize={(size) => {
          setPageSize(size);
          setPage(1);
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
