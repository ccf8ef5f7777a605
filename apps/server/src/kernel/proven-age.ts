import type { AgeVerification } from '../db/schema/links.js';

/**
 * The age a link may be shown with: its VRChat age verification only when the link's ownership is verified.
 * An unproven link may name a stranger's account, whose age says nothing about the member, so it reads
 * 'Unverified' everywhere age is shown or filtered (the Members tab, API v1, /whois); see docs/decisions.md,
 * *Proof before power*.
 */
export function provenAge(link: { isVerified: boolean; ageVerification: AgeVerification }): AgeVerification {
  return link.isVerified ? link.ageVerification : 'Unverified';
}
