import { Button, Group, Select, Text } from '@mantine/core';
import { AUDIT_PAGE_SIZES } from '../api/auditLog';

interface Props {
  page: number;
  pageSize: number;
  totalCount: number;
  /** Whether the page before / after this one can be opened now (its cursor is known). */
  canGoBack: boolean;
  canGoOn: boolean;
  onPage: (page: number) => void;
  onPageSize: (pageSize: number) => void;
}

/** Previous/Next, 'Page n / total', 'Total: n' and the page size; at least one page. */
export function AuditLogPager({ page, pageSize, totalCount, canGoBack, canGoOn, onPage, onPageSize }: Props) {
  const totalPages = Math.max(1, Math.ceil(totalCount / pageSize));
  return (
    <Group justify="space-between" mb="sm">
      <Text size="sm">Total: {totalCount}</Text>
      <Group gap="xs">
        <Button
          size="xs"
          variant="default"
          disabled={page <= 1 || !canGoBack}
          onClick={() => onPage(page - 1)}
        >
          Previous
        </Button>
        <Text size="sm">
          Page {page} / {totalPages}
        </Text>
        <Button
          size="xs"
          variant="default"
          disabled={page >= totalPages || !canGoOn}
          onClick={() => onPage(page + 1)}
        >
          Next
        </Button>
        <Select
          aria-label="Page size"
          size="xs"
          w={90}
          data={AUDIT_PAGE_SIZES.map(String)}
          value={String(pageSize)}
          onChange={(v) => v && onPageSize(Number(v))}
          allowDeselect={false}
        />
      </Group>
    </Group>
  );
}
