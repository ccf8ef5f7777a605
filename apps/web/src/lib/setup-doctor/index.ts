export { SetupCheckPanel } from './components/SetupCheckPanel';
