import { createTheme } from '@mantine/core';

/** Dark, violet-accented theme for a VR gaming community. */
export const theme = createTheme({
  primaryColor: 'violet',
  primaryShade: { light: 6, dark: 6 },
  defaultRadius: 'md',
  fontFamily:
    'Inter, ui-sans-serif, system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
  headings: { fontWeight: '800' },
  defaultGradient: { from: 'violet', to: 'indigo', deg: 135 },
});
