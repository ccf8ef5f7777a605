// Rolling-restart compatibility of migrations (docs/deploy.md, Upgrades): the previous release's code must keep
// working on the schema the new release's first process migrates to. Pure: reads SQL text and drizzle-kit
// snapshots, touches no database.

export type Snapshot = {
  tables: Record<string, { name: string; columns: Record<string, Column> }>;
  enums: Record<string, { name: string; values: string[] }>;
};
type Column = { name: string; type: string; notNull: boolean; default?: unknown; primaryKey?: boolean };

/** An exception to the rule, with why it is safe and what must stop or drain before the upgrade. */
export type Allowed = { statement: string; reason: string; drainFirst: string };

/** The statements of a drizzle-kit migration file, comments dropped, whitespace folded. */
export function statementsOf(sql: string): string[] {
  return sql
    .split('--> statement-breakpoint')
    .map((s) =>
      s
        .split('\n')
        .filter((line) => !line.trim().startsWith('--'))
        .join(' ')
        .replace(/\s+/g, ' ')
        .replace(/;\s*$/, '')
        .trim(),
    )
    .filter(Boolean);
}

// What an older process cannot live with: things it uses going away or changing, writes it makes being refused.
// DROP NOT NULL only relaxes and is fine; CREATE TABLE, ADD COLUMN with a default or nullable, CREATE INDEX are fine.
const breaking: Array<[RegExp, string]> = [
  [/\bDROP\s+(?!NOT\s+NULL\b)/i, 'drops something'],
  [/\bRENAME\b/i, 'renames something'],
  [/\b(SET\s+DATA\s+TYPE|ALTER\s+COLUMN\s+"?\w+"?\s+TYPE)\b/i, 'changes a column type'],
  [/\bSET\s+NOT\s+NULL\b/i, 'makes a column required'],
  [/\b(TRUNCATE|DELETE\s+FROM|UPDATE\s+"?\w+"?\s+SET)\b/i, 'changes rows'],
  [/\bADD\s+COLUMN\b(?=.*\bNOT\s+NULL\b)(?!.*\bDEFAULT\b)/i, 'adds a required column without a default'],
  [/\bCREATE\s+UNIQUE\s+INDEX\b/i, 'adds a unique index (older writes may be refused)'],
  [/\bADD\s+CONSTRAINT\b/i, 'adds a constraint (older writes may be refused)'],
];

/** Table named by an ALTER TABLE / CREATE [UNIQUE] INDEX … ON statement. */
function tableOf(statement: string): string | undefined {
  return /\bALTER TABLE\s+"?(\w+)"?|\bON\s+"?(\w+)"?/i.exec(statement)?.slice(1).find(Boolean);
}

/** Statements of migrations newer than the previous release that an older process may not survive. */
export function breakingStatements(
  migrations: Array<{ tag: string; sql: string }>,
  allowed: Allowed[],
): string[] {
  const all = migrations.flatMap((m) => statementsOf(m.sql).map((statement) => ({ tag: m.tag, statement })));
  // Constraints and unique indexes on a table the same upgrade creates refuse no older write: it never wrote there.
  const created = new Set(
    all.flatMap(({ statement }) => /^CREATE TABLE\s+"?(\w+)"?/i.exec(statement)?.[1] ?? []),
  );
  const problems: string[] = [];
  for (const { tag, statement } of all) {
    if (allowed.some((a) => a.statement === statement)) continue;
    for (const [pattern, what] of breaking) {
      if (!pattern.test(statement)) continue;
      if (/constraint|unique/.test(what) && created.has(tableOf(statement) ?? '')) continue;
      problems.push(`${tag}: ${what}: ${statement}`);
      break;
    }
  }
  return problems;
}

/** Differences between the previous release's schema and the new one that break the previous release's code. */
export function breakingSchemaChanges(previous: Snapshot, next: Snapshot): string[] {
  const problems: string[] = [];
  for (const [key, table] of Object.entries(previous.tables)) {
    const now = next.tables[key];
    if (!now) {
      problems.push(`table ${table.name} is gone`);
      continue;
    }
    for (const [name, column] of Object.entries(table.columns)) {
      const col = now.columns[name];
      if (!col) problems.push(`column ${table.name}.${name} is gone`);
      else if (col.type !== column.type)
        problems.push(`column ${table.name}.${name}: ${column.type} → ${col.type}`);
      else if (col.notNull && !column.notNull) problems.push(`column ${table.name}.${name} became required`);
      else if (column.default !== undefined && col.default === undefined && col.notNull)
        problems.push(`column ${table.name}.${name} lost its default`);
    }
    for (const [name, col] of Object.entries(now.columns)) {
      if (table.columns[name]) continue;
      if (col.notNull && col.default === undefined)
        problems.push(`new column ${table.name}.${name} is required without a default`);
    }
  }
  for (const [key, e] of Object.entries(previous.enums)) {
    const values = next.enums[key]?.values ?? [];
    for (const v of e.values) if (!values.includes(v)) problems.push(`enum ${e.name} lost ${v}`);
  }
  return problems;
}
