import '@mantine/core/styles.css';
import './app/global.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter, RouterProvider } from 'react-router';
import { Providers } from './app/Providers';
import { createQueryClient } from './app/queryClient';
import { routes } from './app/routes';
import { notify } from './components/toasts';

// Lets end-to-end tests raise toasts; harmless, it only shows a local message in this tab.
window.__vrclinkNotify = notify;

const router = createBrowserRouter(routes);

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <Providers queryClient={createQueryClient()}>
      <RouterProvider router={router} />
    </Providers>
  </StrictMode>,
);
