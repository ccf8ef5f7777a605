import { Button, type ButtonProps } from '@mantine/core';
import { IconExternalLink } from '@tabler/icons-react';
import type { ReactNode } from 'react';

/**
 * A button that opens another site (Discord, VRChat) in a new tab; disabled until its address is known. It
 * shows the external-link mark after its text unless it has its own `icon` before it.
 */
export function ExternalLinkButton({
  href,
  size = 'xs',
  variant = 'default',
  icon,
  children,
}: {
  href: string | undefined;
  size?: ButtonProps['size'];
  variant?: ButtonProps['variant'];
  icon?: ReactNode;
  children: ReactNode;
}) {
  return (
    <Button
      component="a"
      href={href}
      target="_blank"
      rel="noopener noreferrer"
      size={size}
      variant={variant}
      disabled={!href}
      // A disabled <a> is not disabled to assistive technology unless it says so.
      aria-disabled={!href || undefined}
      leftSection={icon}
      rightSection={icon ? undefined : <IconExternalLink size={size === 'xs' ? 14 : 16} />}
    >
      {children}
    </Button>
  );
}
