import { describe, expect, it } from 'vitest';
import { ageVerificationOf } from './age.js';
import { bioHasCode, newVerificationCode, vrchatIdFrom } from './code.js';

describe('verification codes', () => {
  it('are random, prefixed and free of look-alike characters', () => {
    const codes = new Set(Array.from({ length: 200 }, newVerificationCode));
    expect(codes.size).toBe(200);
    for (const c of codes) expect(c).toMatch(/^VRCL-[A-HJKMNP-Z2-9]{8}$/);
  });

  it('are found in a bio regardless of case and surrounding text', () => {
    expect(bioHasCode('hi there vrcl-abcdefgh :)', 'VRCL-ABCDEFGH')).toBe(true);
    expect(bioHasCode('VRCL-ABCDEFG', 'VRCL-ABCDEFGH')).toBe(false);
    expect(bioHasCode(null, 'VRCL-ABCDEFGH')).toBe(false);
  });
});

describe('vrchatIdFrom', () => {
  const id = 'usr_c1644b5b-3ca4-45b4-97c6-a2a0de70d469';
  it('reads a bare id, a profile URL, or nothing', () => {
    expect(vrchatIdFrom(id)).toBe(id);
    expect(vrchatIdFrom(`https://vrchat.com/home/user/${id}`)).toBe(id);
    expect(vrchatIdFrom(`  https://vrchat.com/home/user/${id.toUpperCase().replace('USR_', 'usr_')}/ `)).toBe(
      id,
    );
    expect(vrchatIdFrom('Some Name')).toBeNull();
  });
});

describe('ageVerificationOf', () => {
  it('maps 18+ to Plus18, verified to Verified, others to Unverified', () => {
    expect(ageVerificationOf({ ageVerificationStatus: '18+', ageVerified: true })).toBe('Plus18');
    expect(ageVerificationOf({ ageVerificationStatus: 'verified', ageVerified: true })).toBe('Verified');
    expect(ageVerificationOf({ ageVerificationStatus: 'hidden', ageVerified: true })).toBe('Verified');
    expect(ageVerificationOf({ ageVerificationStatus: 'hidden', ageVerified: false })).toBe('Unverified');
  });
});
