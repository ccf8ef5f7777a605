// The package's UdonSharp scripts: checked for what Udon cannot run, and type-checked by Mono against source
// stubs of the Unity and VRChat types they use (test/unity/stubs); the editor scripts are type-checked too. What this does not prove: see the package
// README, "What is verified without Unity".
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compileCSharp, monoStatus, packageDir } from './mono.js';
import { checkUdonSource, preprocess, stripLiterals } from './udon-rules.js';

function csFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return csFiles(path);
    return name.endsWith('.cs') ? [path] : [];
  });
}

const runtimeFiles = csFiles(join(packageDir, 'Runtime'));
const coreFiles = csFiles(join(packageDir, 'Runtime/Core'));
const editorFiles = csFiles(join(packageDir, 'Editor'));
const stubFiles = csFiles(join(__dirname, 'stubs'));

describe('UdonSharp rules', () => {
  it('finds the runtime scripts (the behaviours and the core)', () => {
    const names = runtimeFiles.map((f) => relative(packageDir, f)).sort();
    expect(names).toEqual([
      'Runtime/Core/VRCLinkLzw.cs',
      'Runtime/Core/VRCLinkWorldDocument.cs',
      'Runtime/VRCLinkPosterLoader.cs',
      'Runtime/VRCLinkRoleToggle.cs',
      'Runtime/VRCLinkSupporterBoard.cs',
      'Runtime/VRCLinkWorldData.cs',
    ]);
  });

  it.each(runtimeFiles.map((f) => [relative(packageDir, f), f]))(
    '%s uses only what Udon allows',
    (_, file) => {
      expect(checkUdonSource(relative(packageDir, file), readFileSync(file, 'utf8'))).toEqual([]);
    },
  );

  it('the core files use no Unity or VRChat type outside Unity', () => {
    for (const file of coreFiles) {
      // What Mono compiles (no UNITY_5_3_OR_NEWER), comments aside: nothing but plain C#.
      const plain = preprocess(stripLiterals(readFileSync(file, 'utf8')), []);
      expect(plain).not.toMatch(/\b(?:UnityEngine|VRC|UdonSharp)\b/);
    }
  });

  it.each([
    ['generic type', 'var names = new List<string>();', 'generic type or method'],
    ['generic method', 'var t = GetComponent<Transform>();', 'generic type or method'],
    ['generic array type', 'Dictionary<string, int[]> d;', 'generic type or method'],
    ['lambda', 'Array.ForEach(a, x => x.Go());', 'lambda or expression-bodied member (=>)'],
    ['LINQ namespace', 'using System.Linq;', 'using System.Linq (not an Udon namespace)'],
    ['LINQ query', 'var q = from x in items select x;', 'LINQ query syntax'],
    ['exception', 'try { Go(); } catch { }', 'unsupported keyword'],
    ['throw', 'throw new Exception("no");', 'unsupported keyword'],
    ['null-conditional', 'int n = names?.Length;', 'null-conditional or null-coalescing operator'],
    [
      'out parameter',
      'public bool TryRead(string s, out int value) { }',
      'ref or out parameter in a method declaration',
    ],
    ['static field', 'private static int counter = 0;', 'static field (UdonSharp has none)'],
    ['StringBuilder', 'var sb = new System.Text.StringBuilder();', 'API not exposed to Udon'],
    ['double.Parse', 'double d = double.Parse(s);', 'API not exposed to Udon'],
    ['plain class', 'public class Helper { }', 'class not derived from UdonSharpBehaviour'],
  ])('flags a %s', (_, line, rule) => {
    const rules = checkUdonSource('sample.cs', `${line}\n`).map((v) => v.rule);
    expect(rules).toContain(rule);
  });

  it('ignores comments, strings and the code Unity does not compile', () => {
    const source = [
      '// a List<string> in a comment => fine',
      'string s = "try { List<int> }";',
      '#if !UNITY_5_3_OR_NEWER',
      'public class PlainOutsideUnity { }',
      '#else',
      'public class InUnity : UdonSharpBehaviour { }',
      '#endif',
    ].join('\n');
    expect(checkUdonSource('sample.cs', source)).toEqual([]);
  });
});

const mono = monoStatus();

describe.skipIf(!mono.available)(
  'UdonSharp scripts compile against stubs of the VRChat and Unity types (Mono)',
  () => {
    it('compiles the runtime scripts as Unity would (UNITY_5_3_OR_NEWER) with the stubs', () => {
      expect(() =>
        compileCSharp([...runtimeFiles, ...stubFiles], {
          target: 'library',
          defines: ['UNITY_5_3_OR_NEWER'],
          out: 'VRCLink.Runtime.dll',
        }),
      ).not.toThrow();
    });

    it('compiles the editor scripts with the runtime against stubs of the UnityEditor API', () => {
      expect(() =>
        compileCSharp([...runtimeFiles, ...editorFiles, ...stubFiles], {
          target: 'library',
          defines: ['UNITY_5_3_OR_NEWER', 'UNITY_EDITOR'],
          out: 'VRCLink.Editor.dll',
        }),
      ).not.toThrow();
    });

    it('compiles the core alone, without any stub (plain C#)', () => {
      expect(() => compileCSharp(coreFiles, { target: 'library', out: 'VRCLink.Core.dll' })).not.toThrow();
    });

    it('fails to compile a behaviour that calls a VRChat API the stubs do not have (the check can fail)', () => {
      const dir = join(__dirname, 'stubs');
      expect(() =>
        compileCSharp([...runtimeFiles, ...stubFiles, join(dir, '..', 'fixtures', 'UsesMissingApi.cs')], {
          target: 'library',
          defines: ['UNITY_5_3_OR_NEWER'],
          out: 'Broken.dll',
        }),
      ).toThrow(/error CS/);
    });
  },
);
