import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * CI's `phase` (.ci/phase.sh, sourced by .ci/run) must answer the status of the command it times: .ci/run calls
 * the suite as `phase vitest … || vitest_status=$?`, where bash's `set -e` does not apply inside the function,
 * so a phase answering its bookkeeping's status made a failed suite exit 0.
 */
const phaseScript = resolve(import.meta.dirname, '../../../.ci/phase.sh');

/** Runs that bash under `set -euo pipefail` with phase.sh sourced; answers its exit status and output. */
function bash(script: string) {
  const run = spawnSync('bash', ['-c', `set -euo pipefail; phases=(); source "${phaseScript}"; ${script}`], {
    encoding: 'utf8',
  });
  return { status: run.status, out: run.stdout.trim() };
}

describe('CI phases', () => {
  it("answers the command's failure where `set -e` is off (`phase … || status=$?`), and records its time", () => {
    // biome-ignore lint/suspicious/noTemplateCurlyInString: bash's own ${…}
    const run = bash('s=0; phase suite bash -c "exit 3" || s=$?; echo "$s ${phases[0]}"');
    expect(run.status).toBe(0);
    expect(run.out).toMatch(/^3 suite \d+$/);
  });

  it('ends the script when a phase fails under `set -e`, and answers 0 for a command that passes', () => {
    expect(bash('phase lint false; echo not reached')).toEqual({ status: 1, out: '' });
    // biome-ignore lint/suspicious/noTemplateCurlyInString: bash's own ${…}
    expect(bash('phase lint true; echo "$? ${#phases[@]}"')).toEqual({ status: 0, out: '0 1' });
  });
});
