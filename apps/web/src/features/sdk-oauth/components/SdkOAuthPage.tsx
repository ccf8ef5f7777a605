import { PlaceholderPage } from '../../../components/PlaceholderPage';

/** Placeholder: the SDK approval page is built in its own issue. */
export function SdkOAuthPage() {
  return <PlaceholderPage title="SDK Access" />;
}
