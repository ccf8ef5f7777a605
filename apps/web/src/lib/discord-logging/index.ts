export { LoggingDialog } from './components/LoggingDialog';
