import { PlaceholderPage } from '../../../components/PlaceholderPage';

/** Placeholder: server administration is built in its own issue. */
export function ServerSettingsPage() {
  return <PlaceholderPage title="Server Settings" />;
}
