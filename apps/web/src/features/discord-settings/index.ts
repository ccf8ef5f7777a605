export { DiscordTab } from './components/DiscordTab';
