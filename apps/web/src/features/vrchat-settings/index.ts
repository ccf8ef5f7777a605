export { VrchatTab } from './components/VrchatTab';
