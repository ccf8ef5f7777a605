export { ApiLogPanel } from './components/ApiLogPanel';
