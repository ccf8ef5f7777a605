import { z } from 'zod';

const at = z.string().describe('ISO 8601 time');
const maybeAt = at.nullable();

/**
 * Everything the product holds about the caller (the privacy policy's export). No secrets: no session ids
 * or token hashes, no OAuth tokens (only that they are held, their scope and expiry), no bio codes.
 */
export const myDataExport = z.object({
  exportedAt: at,
  account: z.object({
    id: z.string(),
    username: z.string(),
    globalName: z.string().nullable(),
    avatar: z.string().nullable(),
    createdAt: at,
    lastLoginAt: at,
  }),
  discordAuthorization: z
    .object({ scope: z.string(), expiresAt: at })
    .nullable()
    .describe(
      'Discord OAuth tokens are kept encrypted while Linked Roles need them; the tokens are not shown.',
    ),
  vrchatLink: z
    .object({
      vrcUserId: z.string(),
      vrchatName: z.string(),
      isVerified: z.boolean(),
      ageVerification: z.string(),
      linkedAt: at,
      verifiedAt: maybeAt,
      refreshedAt: at,
    })
    .nullable(),
  verificationCodesPending: z.array(z.object({ vrcUserId: z.string(), createdAt: at })),
  linkEvents: z.array(
    z.object({ vrcUserId: z.string().nullable(), kind: z.string(), createdAt: at, processedAt: maybeAt }),
  ),
  /** What retention summarised of link events deleted after LINK_EVENTS_RETENTION_DAYS: link changes and the latest. */
  linkChangesBeforeThose: z.object({ changes: z.number().int(), lastChangedAt: maybeAt }).nullable(),
  groupInvites: z.array(z.object({ groupId: z.string(), vrcUserId: z.string(), invitedAt: at })),
  guestsIHost: z.array(
    z.object({
      guildId: z.string(),
      guestRoleId: z.string(),
      guestDiscordId: z.string().nullable(),
      guestUsername: z.string().nullable(),
      guestVrcId: z.string().nullable(),
      guestVrcName: z.string().nullable(),
      createdAt: at,
    }),
  ),
  guestOf: z.array(
    z.object({ guildId: z.string(), hostUserId: z.string(), guestRoleId: z.string(), createdAt: at }),
  ),
  serverPermissions: z.array(
    z.object({ guildId: z.string(), permissions: z.array(z.string()), grantedBy: z.string(), updatedAt: at }),
  ),
  serverMemberships: z.array(
    z.object({
      guildId: z.string(),
      username: z.string(),
      globalName: z.string().nullable(),
      nickname: z.string().nullable(),
      roleIds: z.array(z.string()),
      joinedAt: maybeAt,
      leftAt: maybeAt,
    }),
  ),
  sessions: z.array(z.object({ kind: z.string(), createdAt: at, expiresAt: at })),
  sdkApprovals: z.array(z.object({ approvedAt: maybeAt, redeemedAt: maybeAt, expiresAt: at })),
  apiKeysCreated: z.array(
    z.object({
      id: z.string(),
      guildId: z.string(),
      name: z.string(),
      permissions: z.array(z.string()),
      createdOn: at,
      validUntil: at,
      lastUsedAt: maybeAt,
    }),
  ),
  apiCalls: z.array(
    z.object({
      guildId: z.string(),
      method: z.string(),
      path: z.string(),
      status: z.number(),
      createdAt: at,
    }),
  ),
  worldImagesUploaded: z.array(
    z.object({ id: z.string(), guildId: z.string(), name: z.string(), createdAt: at }),
  ),
  auditEntries: z
    .array(
      z.object({
        id: z.number(),
        guildId: z.string().nullable(),
        actorId: z.string().nullable(),
        action: z.string(),
        targetId: z.string().nullable(),
        details: z.record(z.string(), z.unknown()).nullable(),
        createdAt: at,
      }),
    )
    .describe('Entries where the caller acted or was acted on (their Discord id or their VRChat account).'),
});
z.globalRegistry.add(myDataExport, { id: 'MyDataExport' });

export const USERNAME_MISMATCH = 'Type your username exactly to confirm the deletion.';

export const deleteAccountBody = z.object({
  username: z.string().max(100).describe('The caller’s Discord username, typed to confirm.'),
});

export const accountDeleted = z.object({
  status: z.literal('Deleted'),
  message: z.string(),
});
