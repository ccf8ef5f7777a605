export { ManagementTab } from './components/ManagementTab';
