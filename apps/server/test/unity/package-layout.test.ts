// The package folder as Unity will import it: a .meta with a unique, stable GUID beside every file and folder,
// and prefabs and assets that reference only scripts, program assets and materials that exist.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packageDir } from './mono.js';

/** Unity's built-in resources and the VRChat SDK's fixed script GUIDs the prefabs may reference. */
const externalGuids = new Map([
  ['0000000000000000e000000000000000', 'Unity built-in extra resources (meshes, Arial font)'],
  ['0000000000000000f000000000000000', 'Unity built-in resources (Standard shader, default material)'],
  ['45115577ef41a5b4ca741ed302693907', 'VRChat UdonBehaviour'],
  ['c333ccfdd0cbdbc4ca30cef2dd6e6b9b', 'UdonSharpProgramAsset'],
  ['5136146375e9a0a498a72a0091b40cc1', 'UdonSharpAssemblyDefinition'],
]);

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? [path, ...walk(path)] : [path];
  });
}

const all = walk(packageDir);
const assets = all.filter((p) => !p.endsWith('.meta'));
const metas = all.filter((p) => p.endsWith('.meta'));
const guidOf = new Map<string, string>();
for (const meta of metas) {
  const match = readFileSync(meta, 'utf8').match(/^guid: ([0-9a-f]{32})$/m);
  if (match) guidOf.set(relative(packageDir, meta.slice(0, -'.meta'.length)), match[1]);
}
const pathOfGuid = new Map([...guidOf].map(([path, guid]) => [guid, path]));

describe('world SDK package layout', () => {
  it('has a .meta with a GUID for every file and folder, and no .meta without its asset', () => {
    for (const asset of assets)
      expect(guidOf.has(relative(packageDir, asset)), relative(packageDir, asset)).toBe(true);
    for (const meta of metas) expect(assets).toContain(meta.slice(0, -'.meta'.length));
  });

  it('uses each GUID once', () => {
    expect(new Set(guidOf.values()).size).toBe(guidOf.size);
  });

  it.each(assets.filter((p) => /\.(prefab|asset|mat)$/.test(p)).map((p) => [relative(packageDir, p), p]))(
    '%s references only assets that exist',
    (_, file) => {
      const text = readFileSync(file, 'utf8');
      expect(text.startsWith('%YAML 1.1\n%TAG !u! tag:unity3d.com,2011:\n')).toBe(true);
      const guids = [...text.matchAll(/guid: ([0-9a-f]{32})/g)].map((m) => m[1]);
      expect(guids.length).toBeGreaterThan(0);
      for (const guid of guids) expect(pathOfGuid.has(guid) || externalGuids.has(guid), guid).toBe(true);
      // Local references ({fileID: n} without a guid) point at objects of this file.
      const ids = new Set([...text.matchAll(/^--- !u!\d+ &(\d+)$/gm)].map((m) => m[1]));
      for (const m of text.matchAll(/\{fileID: (\d+)\}/g)) {
        if (m[1] !== '0') expect(ids.has(m[1]), `fileID ${m[1]}`).toBe(true);
      }
    },
  );

  it('gives every UdonSharp behaviour a program asset, and every prefab behaviour its backing UdonBehaviour', () => {
    const scripts = assets.filter((p) => p.includes('/Runtime/') && p.endsWith('.cs'));
    for (const script of scripts) {
      const program = readFileSync(script.replace(/\.cs$/, '.asset'), 'utf8');
      expect(program).toContain(
        `sourceCsScript: {fileID: 11500000, guid: ${guidOf.get(relative(packageDir, script))}, type: 3}`,
      );
    }
    for (const prefab of assets.filter((p) => p.endsWith('.prefab'))) {
      const text = readFileSync(prefab, 'utf8');
      const proxies = [...text.matchAll(/_udonSharpBackingUdonBehaviour: \{fileID: (\d+)\}/g)].map(
        (m) => m[1],
      );
      expect(proxies.length, relative(packageDir, prefab)).toBe(1);
      const backing = text.split('--- ').find((doc) => doc.startsWith(`!u!114 &${proxies[0]}\n`)) ?? '';
      expect(backing).toContain('guid: 45115577ef41a5b4ca741ed302693907');
      const program = backing.match(
        /programSource: \{fileID: 11400000, guid: ([0-9a-f]{32}), type: 2\}/,
      )?.[1];
      expect(pathOfGuid.get(program ?? '')).toMatch(/^Runtime\/.+\.asset$/);
    }
  });

  it('ties the runtime asmdef to UdonSharp with an UdonSharp assembly definition', () => {
    const text = readFileSync(join(packageDir, 'Runtime/VRCLink.Runtime.UdonSharp.asset'), 'utf8');
    expect(text).toContain(`guid: ${guidOf.get('Runtime/VRCLink.Runtime.asmdef')}`);
    const runtime = JSON.parse(readFileSync(join(packageDir, 'Runtime/VRCLink.Runtime.asmdef'), 'utf8'));
    expect(runtime.references).toEqual(expect.arrayContaining(['UdonSharp.Runtime', 'VRC.Udon']));
    const editor = JSON.parse(readFileSync(join(packageDir, 'Editor/VRCLink.Editor.asmdef'), 'utf8'));
    expect(editor.includePlatforms).toEqual(['Editor']);
    expect(editor.references).toEqual(expect.arrayContaining(['VRCLink.Runtime', 'UdonSharp.Editor']));
  });
});
