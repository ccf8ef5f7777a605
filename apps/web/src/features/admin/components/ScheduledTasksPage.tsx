import { PlaceholderPage } from '../../../components/PlaceholderPage';

/** Placeholder: the platform-admin scheduled tasks page is built in its own issue. */
export function ScheduledTasksPage() {
  return <PlaceholderPage title="Scheduled Tasks" />;
}
