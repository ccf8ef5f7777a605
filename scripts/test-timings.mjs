// Where CI's test time goes (printed at the end of .ci/run): reads the vitest JSON reports given as arguments
// (`vitest run --reporter=json --outputFile=…`) and prints the time per project, the slowest files and, last (so a
// log cut to its tail still names them), every failed test with the first lines of its failure.
// Usage: node scripts/test-timings.mjs <label>=<report.json> …
import { existsSync, readFileSync } from 'node:fs';
import { relative } from 'node:path';

const TOP = Number(process.env.TIMINGS_TOP ?? 25);
const projectOf = (file) =>
  file.startsWith('apps/server/')
    ? 'server'
    : file.startsWith('apps/web/')
      ? 'web'
      : file.startsWith('apps/simulator/')
        ? 'simulator'
        : file.startsWith('e2e/')
          ? 'e2e'
          : 'other';

const rows = [];
const failures = [];
const firstLines = (text) =>
  String(text ?? '')
    .split('\n')
    .slice(0, 6)
    .join('\n      ');
for (const arg of process.argv.slice(2)) {
  const [label, path] = arg.includes('=') ? arg.split('=') : [arg, arg];
  if (!existsSync(path)) continue;
  const report = JSON.parse(readFileSync(path, 'utf8'));
  for (const r of report.testResults ?? []) {
    const file = relative(process.cwd(), r.name);
    rows.push({
      label,
      file,
      project: projectOf(file),
      seconds: (r.endTime - r.startTime) / 1000,
      tests: r.assertionResults?.length ?? 0,
    });
    const failed = (r.assertionResults ?? []).filter((t) => t.status === 'failed');
    for (const t of failed)
      failures.push(`${label} ${file} > ${t.fullName}\n      ${firstLines(t.failureMessages?.[0])}`);
    // A file can fail outside any test (a hook, an import, an unhandled error): the report says so in its message.
    if (r.status === 'failed' && failed.length === 0)
      failures.push(`${label} ${file}\n      ${firstLines(r.message)}`);
  }
}
const sum = (xs) => xs.reduce((a, b) => a + b, 0);
console.log(
  '\n== test time per pass and project (file seconds summed; e2e files one at a time beside the rest) ==',
);
const groups = new Map();
for (const r of rows) {
  const key = `${r.label} ${r.project}`;
  groups.set(key, [...(groups.get(key) ?? []), r]);
}
for (const [key, rs] of [...groups].sort(
  (a, b) => sum(b[1].map((r) => r.seconds)) - sum(a[1].map((r) => r.seconds)),
))
  console.log(
    `${key.padEnd(28)}${sum(rs.map((r) => r.seconds))
      .toFixed(0)
      .padStart(
        7,
      )} s${String(rs.length).padStart(6)} files${String(sum(rs.map((r) => r.tests))).padStart(7)} tests`,
  );
console.log(`\n== the ${TOP} slowest files ==`);
for (const r of [...rows].sort((a, b) => b.seconds - a.seconds).slice(0, TOP))
  console.log(`${r.seconds.toFixed(1).padStart(8)} s  ${r.label.padEnd(10)} ${r.file} (${r.tests} tests)`);
if (failures.length > 0) {
  console.log(`\n== ${failures.length} failed ==`);
  for (const f of failures) console.log(`  ${f}`);
}
