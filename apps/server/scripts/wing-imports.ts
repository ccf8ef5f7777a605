import { serverDir } from '../src/server-dir.js';
import {
  boundaryViolations,
  crossWingTableUses,
  serverSources,
  wingEdges,
  wingOrder,
} from '../test/import-boundaries.js';

// Prints the imports between the server's layers and wings, and what breaks the direction rule
// (npx tsx apps/server/scripts/wing-imports.ts): the measure behind the wing order in test/import-boundaries.ts.
const files = serverSources(serverDir);
const edges = Object.entries(wingEdges(files)).sort(([a], [b]) => a.localeCompare(b));
process.stdout.write(`wing order: ${wingOrder.join(' < ')}\n`);
for (const [edge, count] of edges) process.stdout.write(`${edge}: ${count}\n`);
const violations = boundaryViolations(files);
process.stdout.write(`${violations.length} violation${violations.length === 1 ? '' : 's'}\n`);
for (const v of violations) process.stdout.write(`  ${v.file} → ${v.imports}: ${v.rule}\n`);
const tableUses = crossWingTableUses(files);
process.stdout.write(`${tableUses.length} cross-wing table use${tableUses.length === 1 ? '' : 's'}\n`);
for (const u of tableUses) process.stdout.write(`  ${u.file} → ${u.table} (${u.owner})\n`);
