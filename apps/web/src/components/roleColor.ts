/** A Discord role colour (0 = none) as CSS; group roles have no colour and show grey. */
export function roleColor(color: number): string {
  return color > 0 ? `#${color.toString(16).padStart(6, '0')}` : 'var(--mantine-color-gray-5)';
}
