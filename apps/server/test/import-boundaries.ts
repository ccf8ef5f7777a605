import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

/**
 * The server's direction rule, read from the source text (see docs/architecture.md, "The server: six wings over
 * a kernel"): the kernel imports no wing; `http/` imports no wing (the composition root hands it the session
 * and API-key lookups); a wing imports another wing only through that wing's `index.ts` (its face), and only a
 * wing below it in `wingOrder`, so wing imports cannot form a cycle; pure cores import neither the database nor
 * a platform adapter. Tests (`*.test.ts`) set up scenes of the whole product (as test/app.ts does), so they may
 * import any wing, but through its face too.
 */

/** The wings from the bottom up: a wing imports only wings before it in this list. */
export const wingOrder = ['access', 'identity', 'community', 'group-sync', 'worlds', 'admin'] as const;

/** Files and folders (ending in `/`) that compute without I/O: no database, no platform adapter. */
export const pureCores = [
  'src/wings/group-sync/sync/sync-plan.ts',
  'src/wings/group-sync/sync/sync-plan-types.ts',
  'src/wings/group-sync/sync/sync-plan-state.ts',
  'src/wings/group-sync/sync/sync-plan-discord-rules.ts',
  'src/wings/group-sync/sync/sync-plan-group-rules.ts',
  'src/wings/worlds/worlds/codec/',
  'src/wings/worlds/world-atlas/pack-atlas.ts',
];

/** Packages that reach a database or a platform: a pure core imports none of them. */
const ioPackages = ['drizzle-orm', 'pg', 'pg-boss', '@electric-sql/pglite', 'discord.js', 'vrchat'];

/** One import that breaks the rule: who imports what, and why it is refused. */
export interface BoundaryViolation {
  file: string;
  imports: string;
  rule: string;
}

export interface ImportLine {
  specifier: string;
  /** `import type` / `export type`: erased by the compiler, so nothing is loaded at run time. */
  typeOnly: boolean;
}

const importPatterns = [
  /^\s*(import|export)\s+(type\s+)?[^'";]*?\bfrom\s*['"]([^'"]+)['"]/gm,
  /\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g,
  /^\s*import\s*['"]([^'"]+)['"]/gm,
];

/** What a file imports: static imports, re-exports, bare imports and lazy `import()`. */
export function importsOf(source: string): ImportLine[] {
  const found: ImportLine[] = [];
  for (const m of source.matchAll(importPatterns[0] as RegExp))
    found.push({ specifier: m[3] as string, typeOnly: Boolean(m[2]) });
  for (const pattern of importPatterns.slice(1))
    for (const m of source.matchAll(pattern)) found.push({ specifier: m[1] as string, typeOnly: false });
  return found;
}

/** The path a relative specifier points at, from the package root, without its extension. */
function resolve(fromFile: string, specifier: string): string {
  const parts = fromFile.split('/').slice(0, -1);
  for (const segment of specifier.split('/')) {
    if (segment === '..') parts.pop();
    else if (segment !== '.') parts.push(segment);
  }
  return parts.join('/').replace(/\.(js|ts)$/, '');
}

/** `{ wing: 'identity', inner: 'auth/session.service' }` for `src/wings/identity/auth/session.service`. */
function wingOf(path: string): { wing: string; inner: string } | null {
  const m = /^src\/wings\/([^/]+)\/(.+)$/.exec(path);
  return m ? { wing: m[1] as string, inner: m[2] as string } : null;
}

const isPureCore = (file: string) =>
  pureCores.some((core) => (core.endsWith('/') ? file.startsWith(core) : file === core));

const orderText = wingOrder.join(' < ');

/** Every .ts file below `<root>/src`, as text, keyed by its path from `root` (`src/…`). */
export function serverSources(root: string): Record<string, string> {
  const files: Record<string, string> = {};
  for (const entry of readdirSync(join(root, 'src'), { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.ts')) continue;
    const path = join(entry.parentPath, entry.name);
    files[relative(root, path).split('\\').join('/')] = readFileSync(path, 'utf8');
  }
  return files;
}

/**
 * How many imports go from one layer to a wing, by `from → to` (`kernel → access`, `identity → community`,
 * `http → identity`): the measure behind the wing order. Imports within a wing are not counted.
 */
export function wingEdges(files: Record<string, string>): Record<string, number> {
  const edges: Record<string, number> = {};
  for (const [file, source] of Object.entries(files)) {
    const from = wingOf(file)?.wing ?? /^src\/(kernel|http)\//.exec(file)?.[1];
    if (!from) continue;
    for (const { specifier } of importsOf(source)) {
      const to = specifier.startsWith('.') ? wingOf(resolve(file, specifier))?.wing : undefined;
      if (!to || to === from) continue;
      const edge = `${from} → ${to}`;
      edges[edge] = (edges[edge] ?? 0) + 1;
    }
  }
  return edges;
}

/** Checks files keyed by their path from the server's package root (`src/wings/x/y.ts`). */
export function boundaryViolations(files: Record<string, string>): BoundaryViolation[] {
  const violations: BoundaryViolation[] = [];
  for (const [file, source] of Object.entries(files)) {
    const from = wingOf(file);
    const isTest = /\.test\.ts$/.test(file);
    for (const { specifier, typeOnly } of importsOf(source)) {
      const relative = specifier.startsWith('.');
      const target = relative ? resolve(file, specifier) : specifier;
      const to = relative ? wingOf(target) : null;
      const refuse = (rule: string) => violations.push({ file, imports: target, rule });
      if (isPureCore(file) && !typeOnly) {
        const io = relative
          ? /^src\/(db|platforms)\//.test(target)
          : ioPackages.some((p) => target === p || target.startsWith(`${p}/`));
        if (io) refuse('a pure core imports neither the database nor a platform adapter');
      }
      if (!to) continue;
      if (file.startsWith('src/kernel/')) refuse('the kernel imports no wing');
      else if (file.startsWith('src/http/')) refuse('http/ imports no wing');
      if (!from || from.wing === to.wing) continue;
      if (to.inner !== 'index')
        refuse(`a wing imports another wing only through its index.ts (${to.wing}/index.ts)`);
      const fromRank = wingOrder.indexOf(from.wing as (typeof wingOrder)[number]);
      const toRank = wingOrder.indexOf(to.wing as (typeof wingOrder)[number]);
      if (!isTest && (fromRank < 0 || toRank < 0 || toRank >= fromRank))
        refuse(`a wing imports only wings below it (${orderText})`);
    }
  }
  return violations;
}

/**
 * Which wing owns each table (by its export in `db/schema/`): only the owner queries it; another wing asks the
 * owner's face (`linkOf`, `verifiedLinksOf`, …). Tables of the kernel and the edges (`kernel`, `jobs`, `http`,
 * `platforms`) are infrastructure any layer may use.
 */
export const tableOwners: Record<string, string> = {
  // access
  apiKeys: 'access',
  guildMembers: 'access',
  guildMemberSync: 'access',
  guildMemberTotals: 'access',
  guildSnapshots: 'access',
  guildSnapshotShards: 'access',
  guildPermissions: 'access',
  // identity
  users: 'identity',
  discordTokens: 'identity',
  sessions: 'identity',
  loginTokens: 'identity',
  vrchatLinks: 'identity',
  verificationCodes: 'identity',
  linkEvents: 'identity',
  linkChangeSummaries: 'identity',
  groupInvites: 'identity',
  sdkLoginRequests: 'identity',
  // community
  guildSettings: 'community',
  guestRoles: 'community',
  guests: 'community',
  // group-sync
  guildGroups: 'group-sync',
  groupLinkCodes: 'group-sync',
  discordGroupMappings: 'group-sync',
  groupDiscordMappings: 'group-sync',
  guildSyncState: 'group-sync',
  syncIntents: 'group-sync',
  syncTemporaryGrants: 'group-sync',
  syncHeldRemovals: 'group-sync',
  groupJoinRefusals: 'group-sync',
  groupRoleCache: 'group-sync',
  // worlds
  worlds: 'worlds',
  worldDataCache: 'worlds',
  worldRequestCounts: 'worlds',
  worldMirrorStatus: 'worlds',
  imageBlobs: 'worlds',
  imagePreviews: 'worlds',
  worldImages: 'worlds',
  worldImageSlots: 'worlds',
  worldAtlases: 'worlds',
  worldAtlasState: 'worlds',
  // admin
  apiLog: 'admin',
  discordLogConfig: 'admin',
  // infrastructure
  auditLog: 'kernel',
  discordLogOutbox: 'kernel',
  cooldowns: 'kernel',
  rateLimits: 'http',
  scheduledTasks: 'jobs',
  processInstances: 'jobs',
  platformSessions: 'platforms',
  platformLoginPauses: 'platforms',
  platformBudgets: 'platforms',
};

/** One wing file that imports another wing's table. */
export interface TableUse {
  file: string;
  table: string;
  owner: string;
}

const namedImport = /^\s*import\s+(type\s+)?\{([^}]*)\}\s*from\s*['"]([^'"]+)['"]/gm;

/**
 * Where a wing's source (tests excluded: they set scenes) imports a table another wing owns, one entry per
 * file and table. Type-only imports count too: a row type is the owner's to offer.
 */
export function crossWingTableUses(files: Record<string, string>): TableUse[] {
  const uses: TableUse[] = [];
  for (const [file, source] of Object.entries(files)) {
    const from = wingOf(file);
    if (!from || /\.test\.ts$/.test(file)) continue;
    for (const m of source.matchAll(namedImport)) {
      if (!/^src\/db\/schema\//.test(resolve(file, m[3] as string))) continue;
      for (const name of (m[2] as string).split(',')) {
        const table = name
          .trim()
          .replace(/^type\s+/, '')
          .split(/\s+as\s+/)[0] as string;
        const owner = tableOwners[table];
        if (owner && owner !== from.wing && (wingOrder as readonly string[]).includes(owner))
          uses.push({ file, table, owner });
      }
    }
  }
  return uses;
}
