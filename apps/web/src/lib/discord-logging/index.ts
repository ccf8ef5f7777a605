export { LoggingSettings } from './components/LoggingSettings';
