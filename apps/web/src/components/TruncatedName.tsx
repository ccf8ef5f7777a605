import { Text, type TextProps, Tooltip } from '@mantine/core';

/**
 * A user-chosen or platform name (member, role, world, server, API key) on one line: cut with an ellipsis
 * where it does not fit, the whole name in a tooltip and in the accessible name, so a 100-character name
 * never widens the page.
 */
export function TruncatedName({ name, ...props }: { name: string } & TextProps) {
  return (
    <Tooltip label={name} openDelay={300} multiline maw={360} style={{ overflowWrap: 'anywhere' }}>
      <Text truncate="end" miw={0} {...props}>
        {name}
      </Text>
    </Tooltip>
  );
}
