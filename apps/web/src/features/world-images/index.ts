export { WorldImagesPage } from './components/WorldImagesPage';
