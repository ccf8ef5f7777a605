import { Center, Loader } from '@mantine/core';
import { type ComponentType, lazy, type ReactNode, Suspense } from 'react';
import type { RouteObject } from 'react-router';
import { NotFoundPage } from '../components/NotFoundPage';
import { HomePage } from '../features/home/components/HomePage';
import { RequireAdmin, RequireLogin } from '../lib/auth';
import { AppLayout } from './layout/AppLayout';

/** A page loaded on first visit (its own chunk), so the home page does not download it. */
function lazyPage<K extends string>(load: () => Promise<Record<K, ComponentType>>, name: K) {
  return lazy(async () => ({ default: (await load())[name] }));
}

const TermsPage = lazyPage(() => import('../features/legal/components/TermsPage'), 'TermsPage');
const PrivacyPolicyPage = lazyPage(
  () => import('../features/legal/components/PrivacyPolicyPage'),
  'PrivacyPolicyPage',
);
const DiscordLoginPage = lazyPage(
  () => import('../features/auth/components/DiscordLoginPage'),
  'DiscordLoginPage',
);
const LoginCallbackPage = lazyPage(
  () => import('../features/auth/components/LoginCallbackPage'),
  'LoginCallbackPage',
);
const TokenLoginPage = lazyPage(() => import('../features/auth/components/TokenLoginPage'), 'TokenLoginPage');
const LogoutPage = lazyPage(() => import('../features/auth/components/LogoutPage'), 'LogoutPage');
const ProfilePage = lazyPage(() => import('../features/profile/components/ProfilePage'), 'ProfilePage');
const ServerSettingsPage = lazyPage(
  () => import('./server-settings/ServerSettingsPage'),
  'ServerSettingsPage',
);
const ScheduledTasksPage = lazyPage(
  () => import('../features/admin/components/ScheduledTasksPage'),
  'ScheduledTasksPage',
);
const SdkOAuthPage = lazyPage(() => import('../features/sdk-oauth/components/SdkOAuthPage'), 'SdkOAuthPage');
const VpmListingPage = lazyPage(
  () => import('../features/vpm-listing/components/VpmListingPage'),
  'VpmListingPage',
);

/** Shown while a lazy page's chunk loads. */
export function PageLoader() {
  return (
    <Center py={80}>
      <Loader aria-label="Loading page" />
    </Center>
  );
}

const page = (element: ReactNode) => <Suspense fallback={<PageLoader />}>{element}</Suspense>;

/** The one route table (spec section 2). The shell, the home and not-found pages are eager; every other page loads on first visit. */
export const routes: RouteObject[] = [
  {
    element: <AppLayout />,
    children: [
      { index: true, element: <HomePage /> },
      { path: 'tos', element: page(<TermsPage />) },
      { path: 'privacy-policy', element: page(<PrivacyPolicyPage />) },
      {
        path: 'profile',
        element: <RequireLogin>{page(<ProfilePage />)}</RequireLogin>,
      },
      {
        path: 'server-settings/*',
        element: <RequireLogin>{page(<ServerSettingsPage />)}</RequireLogin>,
      },
      { path: 'discord/login', element: page(<DiscordLoginPage />) },
      { path: 'discord/login/callback', element: page(<LoginCallbackPage />) },
      { path: 'discord_auth', element: page(<TokenLoginPage />) },
      { path: 'logout', element: page(<LogoutPage />) },
      { path: 'vpm-listing', element: page(<VpmListingPage />) },
      {
        path: 'admin',
        element: <RequireAdmin>{page(<ScheduledTasksPage />)}</RequireAdmin>,
      },
      {
        path: 'sdk-oauth',
        element: <RequireLogin>{page(<SdkOAuthPage />)}</RequireLogin>,
      },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
];
