import { describe, expect, it } from 'vitest';
import { groupIdIn, groupPageUrl } from './groupId';

const id = 'grp_3f2b6c1e-0000-4000-8000-00000000abcd';

describe('groupIdIn', () => {
  it.each([
    [id, id],
    [`https://vrchat.com/home/group/${id}/members`, id],
    [`  ${id}  `, id],
    ['grp_3f2b6c1e-0000-4000-8000-00000000abc', null],
    ['grp_xyz', null],
    ['', null],
  ])('reads %j as %j', (text, expected) => {
    expect(groupIdIn(text)).toBe(expected);
  });
});

describe('groupPageUrl', () => {
  it('points at the group page of the VRChat site, or nowhere before the config is known', () => {
    expect(groupPageUrl('https://vrchat.example', id)).toBe(`https://vrchat.example/home/group/${id}`);
    expect(groupPageUrl(undefined, id)).toBeUndefined();
  });
});
