import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api, type Schemas, unwrap } from '../../../api/client';

export type AuditLogEntry = Schemas['AuditLogEntry'];
export const AUDIT_PAGE_SIZES = [25, 50, 100, 250, 1000] as const;
export const auditSortFields = {
  CreatedAt: 'Created At',
  EventType: 'Event Type',
  ActorDisplayname: 'Actor Name',
  TargetId: 'Target ID',
  Description: 'Description',
} as const;
export type AuditSortField = keyof typeof auditSortFields;
export type AuditSortOrder = 'Ascending' | 'Descending';

/** The filters as the form holds them; empty strings mean "any". */
export interface AuditFilters {
  actorIds: string;
  actorNames: string;
  eventType: string;
  startDate: string;
  endDate: string;
  fullTextSearch: string;
  targetIds: string;
  sortBy: AuditSortField;
  sortOrder: AuditSortOrder;
}

export const emptyAuditFilters: AuditFilters = {
  actorIds: '',
  actorNames: '',
  eventType: '',
  startDate: '',
  endDate: '',
  fullTextSearch: '',
  targetIds: '',
  sortBy: 'CreatedAt',
  sortOrder: 'Descending',
};

const given = (value: string) => value.trim() || undefined;

/**
 * Which page is shown: its number (for 'Page n / total') and, past the first, the cursor the page beside it
 * answered (keyset paging: rows written meanwhile never shift a row into two pages or out of all of them).
 */
export interface AuditPosition {
  page: number;
  cursor?: string;
}

export const auditLogQuery = (
  guildId: string,
  filters: AuditFilters,
  { page, cursor }: AuditPosition,
  pageSize: number,
) =>
  queryOptions({
    queryKey: ['audit-log', guildId, filters, page, cursor ?? null, pageSize],
    queryFn: () =>
      unwrap(
        api.GET('/api/groups/audit_log/{guildId}', {
          params: {
            path: { guildId },
            query: {
              page,
              cursor,
              pageSize,
              actorIds: given(filters.actorIds),
              actorNames: given(filters.actorNames),
              eventTypes: given(filters.eventType),
              targetIds: given(filters.targetIds),
              startDate: given(filters.startDate),
              endDate: given(filters.endDate),
              fullTextSearch: given(filters.fullTextSearch),
              sortBy: filters.sortBy,
              sortOrder: filters.sortOrder,
            },
          },
        }),
      ),
  });

export function useAuditLog(
  guildId: string,
  filters: AuditFilters,
  position: AuditPosition,
  pageSize: number,
) {
  return useQuery({
    ...auditLogQuery(guildId, filters, position, pageSize),
    placeholderData: keepPreviousData,
  });
}
