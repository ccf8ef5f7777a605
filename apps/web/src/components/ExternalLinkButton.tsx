import { Button, type ButtonProps } from '@mantine/core';
import { IconExternalLink } from '@tabler/icons-react';
import type { ReactNode } from 'react';

/** A button that opens another site (Discord, VRChat) in a new tab; disabled until its address is known. */
export function ExternalLinkButton({
  href,
  size = 'xs',
  children,
}: {
  href: string | undefined;
  size?: ButtonProps['size'];
  children: ReactNode;
}) {
  return (
    <Button
      component="a"
      href={href}
      target="_blank"
      rel="noopener noreferrer"
      size={size}
      variant="default"
      disabled={!href}
      // A disabled <a> is not disabled to assistive technology unless it says so.
      aria-disabled={!href || undefined}
      rightSection={<IconExternalLink size={size === 'xs' ? 14 : 16} />}
    >
      {children}
    </Button>
  );
}
