import { Button, Group } from '@mantine/core';
import { type KeyboardEvent, type ReactNode, useRef } from 'react';
import { type ServerTab, serverTabs } from '../../lib/guild-access/tabs';

const tabId = (value: ServerTab) => `server-tab-${value}`;
const PANEL_ID = 'server-tab-panel';

/** Where an arrow key, Home or End moves from tab `index` of `count` (wrapping at the ends); null for other keys. */
export function nextTabIndex(key: string, index: number, count: number): number | null {
  switch (key) {
    case 'ArrowRight':
      return (index + 1) % count;
    case 'ArrowLeft':
      return (index - 1 + count) % count;
    case 'Home':
      return 0;
    case 'End':
      return count - 1;
    default:
      return null;
  }
}

interface Props {
  /** The chosen tab, or null when no server is chosen (every tab disabled then). */
  selected: ServerTab | null;
  onSelect: (tab: ServerTab) => void;
}

/**
 * The server's tabs, as the ARIA tabs pattern has them: one Tab stop (the chosen tab), the arrow keys, Home
 * and End move between tabs and open the one reached (each tab is a page of its own, so opening at once is
 * what a click does too), and the panel below is named by its tab.
 */
export function ServerTabs({ selected, onSelect }: Props) {
  const refs = useRef<(HTMLButtonElement | null)[]>([]);
  const onKeyDown = (event: KeyboardEvent, index: number) => {
    const next = nextTabIndex(event.key, index, serverTabs.length);
    if (next === null || selected === null) return;
    event.preventDefault();
    refs.current[next]?.focus();
    onSelect(serverTabs[next].value);
  };
  return (
    <Group gap="xs" role="tablist" aria-label="Server settings">
      {serverTabs.map((t, index) => {
        const current = selected === t.value;
        return (
          <Button
            key={t.value}
            ref={(el) => {
              refs.current[index] = el;
            }}
            id={tabId(t.value)}
            role="tab"
            aria-selected={current}
            aria-controls={current ? PANEL_ID : undefined}
            tabIndex={current || selected === null ? 0 : -1}
            variant={current ? 'filled' : 'default'}
            disabled={selected === null}
            onClick={() => onSelect(t.value)}
            onKeyDown={(event) => onKeyDown(event, index)}
          >
            {t.label}
          </Button>
        );
      })}
    </Group>
  );
}

/** The chosen tab's content, named by its tab. */
export function ServerTabPanel({ tab, children }: { tab: ServerTab; children: ReactNode }) {
  return (
    <div role="tabpanel" id={PANEL_ID} aria-labelledby={tabId(tab)}>
      {children}
    </div>
  );
}
