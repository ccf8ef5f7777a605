import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { type Allowed, breakingSchemaChanges, breakingStatements, type Snapshot } from './upgrade-compat.js';
import rules from './upgrade-compat.json' with { type: 'json' };

// docs/deploy.md, Upgrades: during a rolling restart the new release's first process migrates, and the previous
// release's processes keep running on the new schema (and a rollback starts the previous release on it). So every
// migration after the previous release only adds, unless upgrade-compat.json allows a statement with a reason and
// what must drain first. Move `previousRelease` to the newest migration when a release is cut.

const drizzle = fileURLToPath(new URL('../drizzle', import.meta.url));
const journal = JSON.parse(readFileSync(`${drizzle}/meta/_journal.json`, 'utf8')) as {
  entries: Array<{ idx: number; tag: string }>;
};
const snapshot = (idx: number): Snapshot =>
  JSON.parse(readFileSync(`${drizzle}/meta/${String(idx).padStart(4, '0')}_snapshot.json`, 'utf8'));

describe('migrations since the previous release', () => {
  const previous = journal.entries.find((e) => e.tag === rules.previousRelease);
  const newer = journal.entries.filter((e) => previous && e.idx > previous.idx);

  it('start from a previous release that is one of the migrations', () => {
    expect(previous, `${rules.previousRelease} is not in drizzle/meta/_journal.json`).toBeDefined();
  });

  it('only add, or are allowed with a reason and what must drain first', () => {
    const allowed = rules.allowed as Allowed[];
    for (const a of allowed) {
      expect(a.reason.length, a.statement).toBeGreaterThan(10);
      expect(a.drainFirst.length, a.statement).toBeGreaterThan(3);
    }
    const migrations = newer.map((e) => ({
      tag: e.tag,
      // The migration file (drizzle-kit names it after its tag).
      sql: readFileSync(join(drizzle, `${e.tag}.sql`), 'utf8'),
    }));
    expect(breakingStatements(migrations, allowed)).toEqual([]);
    // An allowance for a statement no newer migration holds is left over from an earlier release.
    const statements = new Set(
      migrations.flatMap((m) =>
        m.sql.split('--> statement-breakpoint').map((s) => s.trim().replace(/;$/, '')),
      ),
    );
    expect(allowed.map((a) => a.statement).filter((s) => !statements.has(s))).toEqual([]);
  });

  it('keep every table and column the previous release reads and writes, with its type', () => {
    if (!previous) return;
    const latest = journal.entries[journal.entries.length - 1];
    expect(breakingSchemaChanges(snapshot(previous.idx), snapshot(latest.idx))).toEqual([]);
  });
});

describe('the compatibility check', () => {
  it('finds what an older process cannot survive', () => {
    const sql = [
      'ALTER TABLE "a" DROP COLUMN "x";',
      'ALTER TABLE "a" RENAME COLUMN "y" TO "z";',
      'ALTER TABLE "a" ALTER COLUMN "b" SET DATA TYPE bytea;',
      'ALTER TABLE "a" ALTER COLUMN "c" SET NOT NULL;',
      'ALTER TABLE "a" ADD COLUMN "d" text NOT NULL;',
      'DROP TABLE "old";',
      'CREATE UNIQUE INDEX "u" ON "a" USING btree ("e");',
    ].join('--> statement-breakpoint\n');
    expect(breakingStatements([{ tag: 't', sql }], []).map((p) => p.split(':')[1].trim())).toEqual([
      'drops something',
      'renames something',
      'changes a column type',
      'makes a column required',
      'adds a required column without a default',
      'drops something',
      'adds a unique index (older writes may be refused)',
    ]);
  });

  it('lets additions through: tables with their constraints, nullable or defaulted columns, indexes, relaxed columns', () => {
    const sql = [
      'CREATE TABLE "n" ("id" text PRIMARY KEY NOT NULL);',
      'ALTER TABLE "n" ADD CONSTRAINT "n_fk" FOREIGN KEY ("id") REFERENCES "a"("id");',
      'ALTER TABLE "a" ADD COLUMN "f" integer DEFAULT 0 NOT NULL;',
      'ALTER TABLE "a" ADD COLUMN "g" text;',
      'ALTER TABLE "a" ALTER COLUMN "h" DROP NOT NULL;',
      'CREATE INDEX "i" ON "a" USING btree ("f");',
    ].join('--> statement-breakpoint\n');
    expect(breakingStatements([{ tag: 't', sql }], [])).toEqual([]);
  });

  it('compares snapshots: a gone, retyped or newly required column, a required column with no default', () => {
    const col = (type: string, notNull = false, def?: string) => ({ name: '', type, notNull, default: def });
    const before: Snapshot = {
      tables: { 'public.a': { name: 'a', columns: { x: col('text'), y: col('text'), z: col('text') } } },
      enums: {},
    };
    const after: Snapshot = {
      tables: {
        'public.a': {
          name: 'a',
          columns: { y: col('bytea'), z: col('text', true), w: col('text', true), v: col('int', true, '0') },
        },
      },
      enums: {},
    };
    expect(breakingSchemaChanges(before, after)).toEqual([
      'column a.x is gone',
      'column a.y: text → bytea',
      'column a.z became required',
      'new column a.w is required without a default',
    ]);
  });
});
