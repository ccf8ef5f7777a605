import { compareNames, encodeRoleUsers } from './pick-roles.js';

export interface WorldDataSettings {
  includeDiscordData: boolean;
  includeGroupData: boolean;
  /** JSON Custom Data Mode. */
  jsonMode: boolean;
  /** The world's Custom World Data text. */
  customData: string;
  /** Discord role ids, in the manager's picker order. */
  discordEncodeRoles: string[];
  discordAlwaysEncodeRoles: string[];
  /** VRChat group role ids (grol_…), in picker order. */
  groupEncodeRoles: string[];
  groupAlwaysEncodeRoles: string[];
}

export interface WorldDataSources {
  now: Date;
  /** Higher position = higher rank. */
  discordRoles: { id: string; name: string; position: number }[];
  /** Linked server members: VRChat display name, Discord role ids, age status of an ownership-verified link. */
  members: { vrcDisplayName: string; roleIds: string[]; plus18: boolean }[];
  /** Guests assigned through the guest feature (VRChat display name + the guest role id they count as holding). */
  guests: { vrcDisplayName: string; guestRoleId: string }[];
  /** Lower order = higher rank. */
  groupRoles: { id: string; name: string; order: number }[];
  groupMembers: { vrcDisplayName: string; roleIds: string[] }[];
  atlas: {
    metaData: { slotId: number; atlasIndex: number; x: number; y: number; width: number; height: number }[];
    lastGeneration: string;
    variation: 0 | 1;
  } | null;
}

/** Raised when the world's settings cannot produce a valid document. */
export class WorldDataError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WorldDataError';
  }
}

export const WORLD_DATA_VERSION = 1;

/** Builds the JSON document a world downloads (keys are PascalCase, see shared/compat/world-sdk.md). */
export function buildWorldData(
  settings: WorldDataSettings,
  sources: WorldDataSources,
): Record<string, unknown> {
  // Keys are assigned in the document's fixed order: Version, LastUpdated, MemberCount, Guild*, AgeVerifiedUsers,
  // Group*, AtlasDetail, CustomData.
  const doc: Record<string, unknown> = {
    Version: WORLD_DATA_VERSION,
    LastUpdated: sources.now.toISOString(),
    // Members sharing a display name are one person to a world; guests are not linked members.
    MemberCount: distinct(sources.members.map((member) => member.vrcDisplayName)).length,
  };

  if (settings.includeDiscordData) {
    // A guest counts as holding their guest role; encodeRoleUsers merges them with a member of the same name.
    const holders = [
      ...sources.members.map((member) => ({ name: member.vrcDisplayName, roleIds: member.roleIds })),
      ...sources.guests.map((guest) => ({ name: guest.vrcDisplayName, roleIds: [guest.guestRoleId] })),
    ];
    const { users, roleMap } = encodeRoleUsers(
      settings.discordEncodeRoles,
      settings.discordAlwaysEncodeRoles,
      // Discord: a higher position is a higher role.
      sources.discordRoles.map((role) => ({ id: role.id, name: role.name, rank: -role.position })),
      holders,
    );
    doc.GuildUsers = users;
    doc.GuildRoleMap = roleMap;
    // Age status comes only from linked members (guests have no ownership-verified link).
    doc.AgeVerifiedUsers = distinct(
      sources.members.filter((member) => member.plus18).map((member) => member.vrcDisplayName),
    ).sort(compareNames);
  }

  if (settings.includeGroupData) {
    const { users, roleMap } = encodeRoleUsers(
      settings.groupEncodeRoles,
      settings.groupAlwaysEncodeRoles,
      // VRChat groups: a lower order is a higher role.
      sources.groupRoles.map((role) => ({ id: role.id, name: role.name, rank: role.order })),
      sources.groupMembers.map((member) => ({ name: member.vrcDisplayName, roleIds: member.roleIds })),
    );
    doc.GroupUsers = users;
    doc.GroupRoleMap = roleMap;
  }

  if (sources.atlas) {
    doc.AtlasDetail = {
      MetaData: sources.atlas.metaData.map((slot) => ({
        SlotId: slot.slotId,
        AtlasIndex: slot.atlasIndex,
        X: slot.x,
        Y: slot.y,
        Width: slot.width,
        Height: slot.height,
      })),
      LastGeneration: sources.atlas.lastGeneration,
      Variation: sources.atlas.variation,
    };
  }

  doc.CustomData = customDataValue(settings);
  return doc;
}

function customDataValue(settings: WorldDataSettings): unknown {
  // Outside JSON Custom Data Mode the text is embedded verbatim as a string.
  if (!settings.jsonMode) return settings.customData;
  // In JSON mode an empty Custom World Data means "no data", not a parse error.
  if (settings.customData.trim() === '') return null;
  try {
    return JSON.parse(settings.customData);
  } catch {
    throw new WorldDataError('Custom World Data is not valid JSON.');
  }
}

/** Distinct non-empty names, first occurrence order (an empty display name cannot be matched by a world). */
function distinct(names: string[]): string[] {
  return [...new Set(names)].filter((name) => name !== '');
}
