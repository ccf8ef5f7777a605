/**
 * The web's direction rule, read from the source text: a feature (a page or a server-settings tab the app routes
 * to) imports `components/`, `lib/`, `api/` and `testing/`, never another feature nor `app/`; `lib/`,
 * `components/` and `api/` import no feature and not `app/`. Only `app/` (the route table and the server-settings
 * shell) puts features together; `main.tsx` starts `app/`, and tests may render the whole app.
 */

/** One import that breaks the rule: who imports what, and why it is refused. */
export interface BoundaryViolation {
  file: string;
  imports: string;
  rule: string;
}

const importPatterns = [
  /\bfrom\s*['"](\.{1,2}\/[^'"]*)['"]/g,
  /\bimport\s*\(\s*['"](\.{1,2}\/[^'"]*)['"]\s*\)/g,
  /^\s*import\s*['"](\.{1,2}\/[^'"]*)['"]/gm,
];

/** The relative specifiers a file imports (static, re-exported and lazy `import()`). */
export function relativeImports(source: string): string[] {
  return importPatterns.flatMap((pattern) => [...source.matchAll(pattern)].map((m) => m[1] as string));
}

function resolve(fromFile: string, specifier: string): string {
  const parts = fromFile.split('/').slice(0, -1);
  for (const segment of specifier.split('/')) {
    if (segment === '..') parts.pop();
    else if (segment !== '.') parts.push(segment);
  }
  return parts.join('/');
}

/** `features/worlds` for `src/features/worlds/components/WorldCard.tsx`; `lib`, `app`, … for the rest. */
function areaOf(path: string): { layer: string; name: string } {
  const [, layer = '', name = ''] = path.split('/');
  return { layer, name: layer === 'features' ? name : '' };
}

/** Checks files keyed by their path from the package root (`src/features/x/y.ts`). */
export function boundaryViolations(files: Record<string, string>): BoundaryViolation[] {
  const violations: BoundaryViolation[] = [];
  for (const [file, source] of Object.entries(files)) {
    const from = areaOf(file);
    for (const specifier of relativeImports(source)) {
      const target = resolve(file, specifier);
      const to = areaOf(target);
      let rule: string | null = null;
      const isTest = /\.test\.tsx?$/.test(file);
      if (to.layer === 'app' && !isTest && !['app', 'testing', 'main.tsx'].includes(from.layer))
        rule = 'only app/, testing/, main.tsx and tests import app/';
      else if (to.layer === 'features' && from.layer === 'features' && to.name !== from.name)
        rule = 'a feature imports no other feature';
      else if (to.layer === 'features' && ['lib', 'components', 'api'].includes(from.layer))
        rule = `${from.layer}/ imports no feature`;
      if (rule) violations.push({ file, imports: target, rule });
    }
  }
  return violations;
}
