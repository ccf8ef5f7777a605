import { PlaceholderPage } from '../../../components/PlaceholderPage';

/** Placeholder: the profile page is built in its own issue. */
export function ProfilePage() {
  return <PlaceholderPage title="Profile" />;
}
