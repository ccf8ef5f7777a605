import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..', '..');

/** Every non-test TypeScript file under a folder. */
function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return path.endsWith('.ts') && !path.endsWith('.test.ts') ? [path] : [];
  });
}

/**
 * The README's five-minute tour promises what a reader will see the bot do. The bot gives and takes roles;
 * it never writes a nickname (no Discord call of the product sends `nick`), so the tour must not say it does.
 */
describe("the README's tour claims only what the bot does", () => {
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const tour = readme.slice(readme.indexOf('## A five-minute tour'), readme.indexOf('## Reset the demo'));

  it('the product sends no nickname to Discord', () => {
    // The member mirror reads Discord's `nick` (`m.nick`, the type's `nick?:`); a write would send `nick: …`.
    const writers = sources(join(root, 'apps/server/src')).filter((file) =>
      /\bnick\s*:/.test(readFileSync(file, 'utf8')),
    );
    expect(writers).toEqual([]);
  });

  it('the tour does not say the bot changes nicknames', () => {
    expect(tour).toContain('A five-minute tour');
    expect(tour).not.toMatch(/bot (added|adds|sets|changes)[^.]*nickname/i);
  });
});
