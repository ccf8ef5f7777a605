import type { AgeVerification } from '../../db/schema/links.js';

/**
 * The age status as a sentence, for command answers. An unproven link's account may be a stranger's, so its
 * age is never shown as the member's (kernel/proven-age.ts).
 */
export function describeAge(link: { isVerified: boolean; ageVerification: AgeVerification }): string {
  if (!link.isVerified) return 'Age: not verified (ownership of this account is not proven).';
  const age = link.ageVerification;
  if (age === 'Plus18') return 'Age: verified 18+ on VRChat.';
  if (age === 'Verified') return 'Age: verified on VRChat, but not as 18+.';
  return 'Age: not verified on VRChat.';
}
