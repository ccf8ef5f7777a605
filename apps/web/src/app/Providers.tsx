import { MantineProvider } from '@mantine/core';
import { type QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { ToastArea } from '../components/toasts';
import { LoginProvider } from '../lib/auth';
import { cssVariablesResolver, theme } from './theme';

/** Theme, data cache, toasts and the login context around the router. */
export function Providers({ queryClient, children }: { queryClient: QueryClient; children: ReactNode }) {
  return (
    <MantineProvider
      theme={theme}
      cssVariablesResolver={cssVariablesResolver}
      defaultColorScheme="dark"
      forceColorScheme="dark"
    >
      <QueryClientProvider client={queryClient}>
        <LoginProvider>{children}</LoginProvider>
        <ToastArea />
      </QueryClientProvider>
    </MantineProvider>
  );
}
