import { PlaceholderPage } from '../../../components/PlaceholderPage';

/** Placeholder: the package listing is built in its own issue. */
export function VpmListingPage() {
  return <PlaceholderPage title="VPM Listing" />;
}
