import type { AgeVerification } from '../../db/schema/links.js';

/** The age status as a sentence, for command answers. */
export function describeAge(age: AgeVerification): string {
  if (age === 'Plus18') return 'Age: verified 18+ on VRChat.';
  if (age === 'Verified') return 'Age: verified on VRChat, but not as 18+.';
  return 'Age: not verified on VRChat.';
}
