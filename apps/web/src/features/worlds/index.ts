export { WorldsTab } from './components/WorldsTab';
