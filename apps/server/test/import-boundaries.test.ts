import { describe, expect, it } from 'vitest';
import { serverDir } from '../src/server-dir.js';
import {
  boundaryViolations,
  crossWingTableUses,
  importsOf,
  serverSources,
  tableOwners,
  wingEdges,
  wingOrder,
} from './import-boundaries.js';

/**
 * The wing files that still query another wing's table, and why (docs/architecture.md, "Table ownership").
 * A new use fails the test: read through the owner's face instead.
 */
const tableUseExceptions = [
  // The member mirror is joined with the links in SQL (search, paging, counts), and access sits below identity.
  'src/wings/access/members/linked-member-page.ts → vrchatLinks',
  'src/wings/access/members/member-mirror.store.ts → vrchatLinks',
  'src/wings/access/members/members.search.ts → vrchatLinks',
  'src/wings/access/members/members.service.ts → linkChangeSummaries',
  'src/wings/access/members/members.service.ts → linkEvents',
  // A user's servers with their linked groups in one read; community sits below group sync.
  'src/wings/community/profile/profile.service.ts → guildGroups',
];

describe('server import boundaries', () => {
  it('finds no kernel, http, face, wing-order or pure-core violation in src/', () => {
    const files = serverSources(serverDir);
    expect(Object.keys(files).length).toBeGreaterThan(300);
    // Every wing in the order exists and has a face.
    for (const wing of wingOrder) expect(Object.keys(files)).toContain(`src/wings/${wing}/index.ts`);
    expect(boundaryViolations(files)).toEqual([]);
  });

  it("finds a wing querying another wing's table only where listed, and every table has an owner", () => {
    const files = serverSources(serverDir);
    const uses = crossWingTableUses(files).map((u) => `${u.file} → ${u.table}`);
    expect(uses).toEqual(tableUseExceptions);
    expect(uses.length).toBeLessThanOrEqual(10);
    const schema = Object.entries(files).filter(([file]) => file.startsWith('src/db/schema/'));
    const tables = schema.flatMap(([, source]) =>
      [...source.matchAll(/export const (\w+) = pgTable\(/g)].map((m) => m[1]),
    );
    expect(tables.length).toBeGreaterThan(40);
    expect(tables.filter((t) => !((t as string) in tableOwners))).toEqual([]);
    expect(
      crossWingTableUses({
        'src/wings/community/guests/guests.service.ts': [
          "import { guests, vrchatLinks as l } from '../../../db/schema/index.js';",
          "import type { guildGroups } from '../../../db/schema/guilds.js';",
        ].join('\n'),
        'src/wings/community/guests/guests.test.ts':
          "import { vrchatLinks } from '../../../db/schema/index.js';",
        'src/kernel/audit.ts': "import { users } from '../db/schema/index.js';",
      }),
    ).toEqual([
      { file: 'src/wings/community/guests/guests.service.ts', table: 'vrchatLinks', owner: 'identity' },
      { file: 'src/wings/community/guests/guests.service.ts', table: 'guildGroups', owner: 'group-sync' },
    ]);
  });

  it('reads static, type-only, re-exported, bare, multi-line and lazy imports', () => {
    const source = [
      "import { a } from '../a.js';",
      "import type { B } from './b.js';",
      "export { c } from './c.js';",
      "export * from '../../d.js';",
      "import './e.js';",
      'import {\n  f,\n  type G,\n} from "../f.js";',
      "const h = await import('./h.js');",
      "import { eq } from 'drizzle-orm';",
    ].join('\n');
    expect(importsOf(source)).toEqual([
      { specifier: '../a.js', typeOnly: false },
      { specifier: './b.js', typeOnly: true },
      { specifier: './c.js', typeOnly: false },
      { specifier: '../../d.js', typeOnly: false },
      { specifier: '../f.js', typeOnly: false },
      { specifier: 'drizzle-orm', typeOnly: false },
      { specifier: './h.js', typeOnly: false },
      { specifier: './e.js', typeOnly: false },
    ]);
  });

  it('fails on a fixture that breaks each rule, and passes the imports the rules allow', () => {
    const fixture = {
      // The kernel and http/ import no wing, not even a face.
      'src/kernel/audit.ts': "import { outbox } from '../wings/admin/discord-logging/outbox.js';",
      'src/http/auth.ts': [
        "import { findSession } from '../wings/identity/index.js';",
        "import { refused } from '../kernel/errors.js';",
      ].join('\n'),
      // Past the face of a lower wing; upward through a face; upward past the face.
      'src/wings/community/guests/guests.service.ts': [
        "import { findLinkByDiscord } from '../../identity/links/links.service.js';",
        "import { runGuildSync } from '../../group-sync/index.js';",
        "import type { AuditRow } from '../../admin/audit-log/audit-log.service.js';",
        // Allowed: a lower wing's face, its own wing, the kernel, the database, http/.
        "import { requireGuildPermission } from '../../access/index.js';",
        "import { heldEntries } from './slots.js';",
        "import { audit } from '../../../kernel/audit.js';",
        "import { guests } from '../../../db/schema/index.js';",
        "import { requireUser } from '../../../http/auth.js';",
      ].join('\n'),
      // A test may set a scene through a higher wing's face, but not past it.
      'src/wings/access/permissions/permissions.test.ts': [
        "import { createSession } from '../../identity/index.js';",
        "import { runGuildSync } from '../../group-sync/sync/sync.service.js';",
      ].join('\n'),
      // A pure core: no database, no platform adapter at run time (types are erased).
      'src/wings/group-sync/sync/sync-plan.ts': [
        "import type { DiscordToGroupAction } from '../../../db/schema/sync.js';",
        "import { guildMembers } from '../../../db/schema/index.js';",
        "import { and } from 'drizzle-orm';",
        "import type { VrchatPort } from '../../../platforms/ports.js';",
        "import { guardDiscord } from '../../../platforms/discord/guard.js';",
      ].join('\n'),
    };
    expect(wingEdges(fixture)).toEqual({
      'kernel → admin': 1,
      'http → identity': 1,
      'community → identity': 1,
      'community → group-sync': 1,
      'community → admin': 1,
      'community → access': 1,
      'access → identity': 1,
      'access → group-sync': 1,
    });
    const below = `a wing imports only wings below it (${wingOrder.join(' < ')})`;
    expect(boundaryViolations(fixture)).toEqual([
      {
        file: 'src/kernel/audit.ts',
        imports: 'src/wings/admin/discord-logging/outbox',
        rule: 'the kernel imports no wing',
      },
      { file: 'src/http/auth.ts', imports: 'src/wings/identity/index', rule: 'http/ imports no wing' },
      {
        file: 'src/wings/community/guests/guests.service.ts',
        imports: 'src/wings/identity/links/links.service',
        rule: 'a wing imports another wing only through its index.ts (identity/index.ts)',
      },
      {
        file: 'src/wings/community/guests/guests.service.ts',
        imports: 'src/wings/group-sync/index',
        rule: below,
      },
      {
        file: 'src/wings/community/guests/guests.service.ts',
        imports: 'src/wings/admin/audit-log/audit-log.service',
        rule: 'a wing imports another wing only through its index.ts (admin/index.ts)',
      },
      {
        file: 'src/wings/community/guests/guests.service.ts',
        imports: 'src/wings/admin/audit-log/audit-log.service',
        rule: below,
      },
      {
        file: 'src/wings/access/permissions/permissions.test.ts',
        imports: 'src/wings/group-sync/sync/sync.service',
        rule: 'a wing imports another wing only through its index.ts (group-sync/index.ts)',
      },
      {
        file: 'src/wings/group-sync/sync/sync-plan.ts',
        imports: 'src/db/schema/index',
        rule: 'a pure core imports neither the database nor a platform adapter',
      },
      {
        file: 'src/wings/group-sync/sync/sync-plan.ts',
        imports: 'drizzle-orm',
        rule: 'a pure core imports neither the database nor a platform adapter',
      },
      {
        file: 'src/wings/group-sync/sync/sync-plan.ts',
        imports: 'src/platforms/discord/guard',
        rule: 'a pure core imports neither the database nor a platform adapter',
      },
    ]);
  });
});
