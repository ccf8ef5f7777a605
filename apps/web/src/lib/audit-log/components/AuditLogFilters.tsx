import { Button, Collapse, Group, Select, SimpleGrid, TextInput } from '@mantine/core';
import { useDisclosure, useMediaQuery } from '@mantine/hooks';
import { useState } from 'react';
import {
  type AuditFilters,
  type AuditSortField,
  type AuditSortOrder,
  auditSortFields,
  emptyAuditFilters,
} from '../api/auditLog';

interface Props {
  eventTypes: string[];
  /** Each event type in words. */
  eventLabels?: Record<string, string>;
  onSearch: (filters: AuditFilters) => void;
}

const ALL = '__all__';

/** The filter form: nothing applies until Search; Reset clears the form and the applied filters. */
export function AuditLogFilters({ eventTypes, eventLabels = {}, onSearch }: Props) {
  // On a phone the form folds away behind 'Filters' so the entries come first.
  const isPhone = useMediaQuery('(max-width: 48em)');
  const [shown, { toggle }] = useDisclosure(false);
  const [form, setForm] = useState<AuditFilters>(emptyAuditFilters);
  const set = (key: keyof AuditFilters) => (value: string) => setForm((f) => ({ ...f, [key]: value }));
  const text = (key: keyof AuditFilters, label: string, type = 'text') => (
    <TextInput
      label={label}
      type={type}
      value={form[key]}
      onChange={(e) => set(key)(e.currentTarget.value)}
    />
  );
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        onSearch(form);
      }}
    >
      {isPhone && (
        <Button variant="default" mb="sm" onClick={toggle} aria-expanded={shown} fullWidth>
          {shown ? 'Hide filters' : 'Filters'}
        </Button>
      )}
      <Collapse expanded={!isPhone || shown}>
        <SimpleGrid cols={{ base: 1, sm: 3, lg: 5 }} mb="sm">
          {text('actorIds', 'Actor ID')}
          {text('actorNames', 'Actor Name')}
          <Select
            label="Event Type"
            data={[
              { value: ALL, label: 'All' },
              ...eventTypes.map((t) => ({ value: t, label: eventLabels[t] ?? t })),
            ]}
            value={form.eventType || ALL}
            onChange={(v) => set('eventType')(!v || v === ALL ? '' : v)}
            allowDeselect={false}
          />
          {text('startDate', 'From', 'date')}
          {text('endDate', 'To', 'date')}
          {text('fullTextSearch', 'Description/Data')}
          {text('targetIds', 'Target ID')}
          <Select
            label="Sort By"
            data={Object.entries(auditSortFields).map(([value, label]) => ({ value, label }))}
            value={form.sortBy}
            onChange={(v) => v && set('sortBy')(v as AuditSortField)}
            allowDeselect={false}
          />
          <Select
            label="Sort Order"
            data={['Ascending', 'Descending']}
            value={form.sortOrder}
            onChange={(v) => v && set('sortOrder')(v as AuditSortOrder)}
            allowDeselect={false}
          />
        </SimpleGrid>
        <Group mb="md">
          <Button type="submit">Search</Button>
          <Button
            variant="default"
            onClick={() => {
              setForm(emptyAuditFilters);
              onSearch(emptyAuditFilters);
            }}
          >
            Reset
          </Button>
        </Group>
      </Collapse>
    </form>
  );
}
