import { Table } from '@mantine/core';
import type { ReactNode } from 'react';

/**
 * A table that scrolls sideways within itself on narrow screens, and down within itself when taller than the
 * window. The scrolling part is a named, focusable region
 * so keyboard users can reach and scroll it even when its rows hold nothing focusable (axe:
 * scrollable-region-focusable).
 */
export function TableScroll({
  label,
  minWidth,
  children,
}: {
  label: string;
  minWidth: number;
  children: ReactNode;
}) {
  return (
    <Table.ScrollContainer
      minWidth={minWidth}
      // Never taller than the window below the fixed header: focusing the region then shows all of its frame
      // (a taller one, as the scheduled tasks grew, had its top under the header on Shift+Tab; WCAG 2.4.11).
      maxHeight="calc(100dvh - var(--app-shell-header-height, 60px) - 2rem)"
      scrollAreaProps={{ viewportProps: { tabIndex: 0, role: 'region', 'aria-label': label } }}
    >
      {children}
    </Table.ScrollContainer>
  );
}
