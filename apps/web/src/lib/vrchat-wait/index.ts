export { VrchatSlowNotice } from './VrchatSlowNotice';
export {
  useSlow,
  VRCHAT_SLOW,
  VRCHAT_SLOW_AFTER_MS,
  vrchatFailureSentence,
  vrchatRetrySentence,
} from './vrchatWait';
