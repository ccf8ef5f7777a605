/**
 * What a settings change would make the bot do, before it is saved: the sync's own observation and planner,
 * run once with the settings as they are and once with the change, and the difference between the two plans
 * (what the sync would do anyway is not the change's doing).
 */
import type { Actor } from '../../../kernel/actor.js';
import type { AppContext } from '../../../kernel/context.js';
import { requireGuildPermission } from '../../access/index.js';
import { previewGuestRoleChange, rolesLeftBy } from '../../community/index.js';
import { retiredRoleGrants } from './auto-role-rules.js';
import type { ProposedChange } from './change-preview.schemas.js';
import { rememberedHolds } from './held-removals.js';
import { actedOnName, viewOf, warningMessage } from './sync.service.js';
import { planWithBreaker } from './sync-breaker.js';
import { type Observation, observeGuild } from './sync-observe.js';
import {
  type DiscordGroupRule,
  type GroupDiscordRule,
  planSync,
  type SyncAction,
  type SyncPlanInput,
} from './sync-plan.js';

/** Names listed per role; a change past this many says the count and lists the first ones. */
const NAMES_LIMIT = 500;

type EffectKind = 'discordRole' | 'groupRole' | 'invite' | 'acceptRequest' | 'remove';
interface Effect {
  kind: EffectKind;
  roleName: string | null;
  sentence: string;
  given: string[];
  taken: string[];
}

type AutoRolesChange = Extract<ProposedChange, { kind: 'autoRoles' }>;

function nextAutoRoles(input: SyncPlanInput, change: AutoRolesChange): SyncPlanInput['autoRoles'] {
  const c = change.autoAssignRoles;
  const pick = (next: string | null | undefined, now: string | null) => (next === undefined ? now : next);
  return {
    linkedRoleId: pick(c.linkedRoleId, input.autoRoles.linkedRoleId),
    plus18RoleId: pick(c.ageVerifiedPlus18RoleId, input.autoRoles.plus18RoleId),
    ageVerifiedRoleId: pick(c.ageVerifiedRoleId, input.autoRoles.ageVerifiedRoleId),
  };
}

/** The roles an auto-role change stops managing (the settings' own rule, as the save records them). */
function leftRoles(input: SyncPlanInput, next: SyncPlanInput['autoRoles']) {
  const asSettings = (r: SyncPlanInput['autoRoles']) => ({
    linkedRoleId: r.linkedRoleId,
    ageVerifiedPlus18RoleId: r.plus18RoleId,
    ageVerifiedRoleId: r.ageVerifiedRoleId,
  });
  return rolesLeftBy(asSettings(input.autoRoles), asSettings(next));
}

/** Each role an auto-role change stops managing, with how many members its old setting gave it to. */
function oldRolesOf(obs: Observation, change: ProposedChange) {
  if (change.kind !== 'autoRoles') return [];
  return leftRoles(obs.input, nextAutoRoles(obs.input, change)).map((r) => ({
    roleId: r.roleId,
    roleName: obs.guild.roles.find((x) => x.id === r.roleId)?.name ?? r.roleId,
    members: retiredRoleGrants(obs.input.members, [r]).length,
  }));
}

/** The plan's input with the change applied (the observation itself is left as it is). */
export function withChange(input: SyncPlanInput, change: ProposedChange): SyncPlanInput {
  if (change.kind === 'autoRoles') {
    const autoRoles = nextAutoRoles(input, change);
    // The roles it stops managing are taken back from their holders unless the manager keeps them.
    const left = change.oldRoles === 'keep' ? [] : leftRoles(input, autoRoles);
    return {
      ...input,
      autoRoles,
      temporaryGrants: [...(input.temporaryGrants ?? []), ...retiredRoleGrants(input.members, left)],
    };
  }
  const group = input.group;
  if (!group || change.kind === 'guestRole') return input;
  if (change.kind === 'groupSettings')
    return {
      ...input,
      group: {
        ...group,
        enabled: change.enabled ?? group.enabled,
        autoRemove: change.autoKick ?? group.autoRemove,
      },
    };
  // Mapping rows carry their id (observed from the table); 'None' is no rule, as the sync reads them.
  const replace = <R extends { action: string }>(rules: readonly R[], next: R | null) => [
    ...rules.filter((r) => !change.id || (r as R & { id?: string }).id !== change.id),
    ...(next && next.action !== 'None' ? [next] : []),
  ];
  if (change.kind === 'discordToGroup')
    return {
      ...input,
      group: { ...group, discordToGroup: replace<DiscordGroupRule>(group.discordToGroup, change.mapping) },
    };
  return {
    ...input,
    group: { ...group, groupToDiscord: replace<GroupDiscordRule>(group.groupToDiscord, change.mapping) },
  };
}

const keyOf = (a: SyncAction) =>
  `${a.kind}|${'vrcUserId' in a ? a.vrcUserId : ''}|${a.discordUserId ?? ''}|${'roleId' in a ? a.roleId : ''}`;

const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

function roleSentence(role: string, given: number, taken: number): string {
  if (given > 0 && taken > 0)
    return `${role} will be taken from ${count(taken, 'member', 'members')} and given to ${given}.`;
  if (taken > 0) return `${role} will be taken from ${count(taken, 'member', 'members')}.`;
  return `${role} will be given to ${count(given, 'member', 'members')}.`;
}

/** The added actions grouped per role (or per membership action), each with its sentence and names. */
export function effectsOf(obs: Observation, actions: readonly SyncAction[]): Effect[] {
  const groups = new Map<
    string,
    { kind: EffectKind; roleName: string | null; given: string[]; taken: string[] }
  >();
  for (const a of actions) {
    const view = viewOf(obs, a);
    const kind: EffectKind =
      a.kind === 'addDiscordRole' || a.kind === 'removeDiscordRole'
        ? 'discordRole'
        : a.kind === 'addGroupRole' || a.kind === 'removeGroupRole'
          ? 'groupRole'
          : a.kind;
    const key = `${kind}|${'roleId' in a ? a.roleId : ''}`;
    const entry = groups.get(key) ?? { kind, roleName: view.roleName, given: [], taken: [] };
    groups.set(key, entry);
    const taken = a.kind === 'remove' || a.kind === 'removeDiscordRole' || a.kind === 'removeGroupRole';
    (taken ? entry.taken : entry.given).push(actedOnName(obs, a));
  }
  return [...groups.values()].map((g) => {
    const given = g.given.length;
    const taken = g.taken.length;
    const sentence =
      g.kind === 'discordRole'
        ? roleSentence(g.roleName ?? '', given, taken)
        : g.kind === 'groupRole'
          ? roleSentence(`The group role ${g.roleName ?? ''}`, given, taken)
          : g.kind === 'invite'
            ? `${count(given, 'person', 'people')} will be invited to the group.`
            : g.kind === 'acceptRequest'
              ? `${count(given, 'join request', 'join requests')} will be accepted.`
              : `${count(taken, 'member', 'members')} will be removed from the group.`;
    const byName = (a: string, b: string) => a.localeCompare(b);
    return {
      ...g,
      sentence,
      given: g.given.sort(byName).slice(0, NAMES_LIMIT),
      taken: g.taken.sort(byName).slice(0, NAMES_LIMIT),
    };
  });
}

/** The preview for one proposed change; needs Admin, as every route that saves such a change. */
export async function previewSettingsChange(
  ctx: AppContext,
  actor: Actor,
  guildId: string,
  change: ProposedChange,
) {
  await requireGuildPermission(ctx, actor, guildId, 'Admin');
  // Guest roles are the guests module's, not the sync's: its own rule says which guests would go.
  if (change.kind === 'guestRole')
    return { ...(await previewGuestRoleChange(ctx, guildId, change)), oldRoles: [] };
  const obs = await observeGuild(ctx, guildId, { readGroup: true, preview: true });
  if (!obs) return { effects: [], total: 0, warnings: [], wouldHold: 0, complete: true, oldRoles: [] };
  const now = planSync(obs.input);
  const next = planSync(withChange(obs.input, change));
  const already = new Set(now.actions.map(keyOf));
  const added = next.actions.filter((a) => !already.has(keyOf(a)));
  const knownWarnings = new Set(now.warnings.map((w) => warningMessage(obs, w)));
  const warnings = [...new Set(next.warnings.map((w) => warningMessage(obs, w)))].filter(
    (m) => !knownWarnings.has(m),
  );
  // The breaker's own rule (group removals, and a Discord role taken from many holders), on the proposed settings.
  const remembered = await rememberedHolds(ctx.db, guildId);
  const { held } = planWithBreaker(withChange(obs.input, change), obs.group?.memberCount ?? 0, remembered);
  const addedKeys = new Set(added.map(keyOf));
  const wouldHold = held.some((a) => addedKeys.has(keyOf(a))) ? held.length : 0;
  return {
    effects: effectsOf(obs, added),
    total: added.length,
    warnings,
    wouldHold,
    complete: obs.groupListComplete,
    oldRoles: oldRolesOf(obs, change),
  };
}
