import type { AgeVerification } from '../../../db/schema/links.js';

/** Maps VRChat's age fields to the product's value: 18+ → Plus18, age-verified otherwise → Verified. */
export function ageVerificationOf(user: {
  ageVerificationStatus?: string;
  ageVerified?: boolean;
}): AgeVerification {
  if (user.ageVerificationStatus === '18+') return 'Plus18';
  if (user.ageVerified || user.ageVerificationStatus === 'verified') return 'Verified';
  return 'Unverified';
}
