export { SetupGuestsDialog } from './components/SetupGuestsDialog';
