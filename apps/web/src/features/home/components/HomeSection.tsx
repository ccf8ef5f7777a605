import { Title } from '@mantine/core';
import type { ReactNode } from 'react';

/** A section of the home page, named by its heading (aria-labelledby). */
export function HomeSection({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section aria-labelledby={id}>
      <Title order={2} id={id} mb="lg">
        {title}
      </Title>
      {children}
    </section>
  );
}
