import type { LoginState } from '../../lib/auth';
import { isAdmin } from '../../lib/auth';

export interface NavItem {
  to: string;
  label: string;
  end?: boolean;
}

/** The spec's navigation: Home for everyone, more when logged in, Admin for rank Admin. */
export function navItems(login: LoginState): NavItem[] {
  const items: NavItem[] = [{ to: '/', label: 'Home', end: true }];
  if (login.isLoggedIn) {
    items.push(
      { to: '/profile', label: 'Profile' },
      { to: '/server-settings', label: 'Server Settings' },
      { to: '/vpm-listing', label: 'VPM Listing' },
    );
  }
  if (isAdmin(login)) items.push({ to: '/admin', label: 'Admin' });
  return items;
}
