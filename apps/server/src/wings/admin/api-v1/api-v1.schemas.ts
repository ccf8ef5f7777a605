import { z } from 'zod';
import { ageVerificationValues } from '../../../db/schema/links.js';
import { snowflake } from '../../../http/params.js';

/** A VRChat user id as VRChat writes them (`usr_` and a UUID; very old accounts have 10 characters). */
export const vrchatUserId = z
  .string()
  .regex(/^usr_[0-9a-zA-Z-]{1,64}$|^[0-9A-Za-z]{10}$/, 'must be a VRChat user id (usr_…)');
const groupRoleId = z.string().regex(/^grol_[0-9a-zA-Z-]{1,64}$/, 'must be a VRChat group role id (grol_…)');

/** One value or the parameter repeated (`?discordRoleId=a&discordRoleId=b`), at most 25. */
const oneOrMany = <T extends z.ZodType>(item: T) => z.union([item, z.array(item).max(25)]).optional();

const example = {
  discordId: '1300000000000000002',
  discordUsername: 'glimmer',
  discordDisplayName: 'Glimmer',
  vrchatId: 'usr_c1644b5b-3ca4-45b4-97c6-a2a0de70d469',
  vrchatDisplayName: 'Glimmer',
  verified: true,
  ageVerification: 'Plus18' as const,
  discordRoleIds: ['1200000000000000011', '1200000000000000012'],
  linkedAt: '2026-11-02T18:04:11.000Z',
};

/** A linked member as /api/v1 answers it. The field names are stable: new fields may come, none go. */
export const v1Member = z
  .object({
    discordId: z.string().describe('Discord user id.'),
    discordUsername: z.string().describe('Discord username.'),
    discordDisplayName: z.string().describe('Server nickname, else global name, else username.'),
    vrchatId: z.string().describe('VRChat user id (usr_…).'),
    vrchatDisplayName: z.string().describe('VRChat display name as last seen.'),
    verified: z.boolean().describe('True when the member proved owning the VRChat account (bio code).'),
    ageVerification: z
      .enum(ageVerificationValues)
      .describe(
        "VRChat age verification as last seen; always 'Unverified' when `verified` is false (an unproven link's account says nothing about the member).",
      ),
    discordRoleIds: z.array(z.string()).describe("The member's Discord role ids in this server."),
    linkedAt: z.string().describe('When the link was made (ISO 8601).'),
  })
  .meta({ id: 'V1Member', examples: [example] });

export const v1MemberPage = z
  .object({
    members: z.array(v1Member),
    nextCursor: z.string().nullable().describe('Pass as `cursor` for the next page; null on the last page.'),
  })
  .meta({ examples: [{ members: [example], nextCursor: 'bWVtYmVyOjEzMDAwMDAwMDAwMDAwMDAwMDI' }] });

export const v1MemberQuery = z.object({
  discordRoleId: oneOrMany(snowflake).describe('Members holding any of these Discord roles (repeatable).'),
  groupRoleId: oneOrMany(groupRoleId).describe(
    "Members holding any of these roles in the server's linked VRChat group (repeatable; read from VRChat).",
  ),
  vrcName: z
    .string()
    .min(1)
    .max(64)
    .optional()
    .describe('VRChat display name prefix, case-insensitive.')
    .meta({ examples: ['glim'] }),
  vrcId: vrchatUserId
    .optional()
    .describe('VRChat user id.')
    .meta({ examples: ['usr_c1644b5b-3ca4-45b4-97c6-a2a0de70d469'] }),
  verified: z.enum(['true', 'false']).optional().describe('Ownership verified (bio code) or not.'),
  ageVerification: z
    .enum(ageVerificationValues)
    .optional()
    .describe(
      "VRChat age verification as last seen; 'Plus18' and 'Verified' match only ownership-verified links, 'Unverified' also every unproven link.",
    ),
  cursor: z.string().max(200).optional().describe('The nextCursor of the previous page.'),
  limit: z.coerce.number().int().min(1).max(200).default(50).describe('Members per page, 1 to 200.'),
});
export type V1MemberQuery = z.infer<typeof v1MemberQuery>;
