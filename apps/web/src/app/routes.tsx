import type { RouteObject } from 'react-router';
import { NotFoundPage } from '../components/NotFoundPage';
import { ScheduledTasksPage } from '../features/admin/components/ScheduledTasksPage';
import {
  DiscordLoginPage,
  LoginCallbackPage,
  LogoutPage,
  RequireAdmin,
  RequireLogin,
  TokenLoginPage,
} from '../features/auth';
import { HomePage } from '../features/home/components/HomePage';
import { PrivacyPolicyPage } from '../features/legal/components/PrivacyPolicyPage';
import { TermsPage } from '../features/legal/components/TermsPage';
import { ProfilePage } from '../features/profile/components/ProfilePage';
import { SdkOAuthPage } from '../features/sdk-oauth/components/SdkOAuthPage';
import { ServerSettingsPage } from '../features/server-settings/components/ServerSettingsPage';
import { VpmListingPage } from '../features/vpm-listing/components/VpmListingPage';
import { AppLayout } from './layout/AppLayout';

/** The one route table (spec section 2). */
export const routes: RouteObject[] = [
  {
    element: <AppLayout />,
    children: [
      { index: true, element: <HomePage /> },
      { path: 'tos', element: <TermsPage /> },
      { path: 'privacy-policy', element: <PrivacyPolicyPage /> },
      {
        path: 'profile',
        element: (
          <RequireLogin>
            <ProfilePage />
          </RequireLogin>
        ),
      },
      {
        path: 'server-settings/*',
        element: (
          <RequireLogin>
            <ServerSettingsPage />
          </RequireLogin>
        ),
      },
      { path: 'discord/login', element: <DiscordLoginPage /> },
      { path: 'discord/login/callback', element: <LoginCallbackPage /> },
      { path: 'discord_auth', element: <TokenLoginPage /> },
      { path: 'logout', element: <LogoutPage /> },
      { path: 'vpm-listing', element: <VpmListingPage /> },
      {
        path: 'admin',
        element: (
          <RequireAdmin>
            <ScheduledTasksPage />
          </RequireAdmin>
        ),
      },
      {
        path: 'sdk-oauth',
        element: (
          <RequireLogin>
            <SdkOAuthPage />
          </RequireLogin>
        ),
      },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
];
