export { MembersTab } from './components/MembersTab';
