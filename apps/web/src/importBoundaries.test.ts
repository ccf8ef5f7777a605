import { describe, expect, it } from 'vitest';
import { boundaryViolations, relativeImports } from '../test/importBoundaries';

// Every source file of the web app, as text, keyed `/src/…` (the generated OpenAPI types are data, not imports).
const sources = import.meta.glob<string>(['/src/**/*.{ts,tsx}', '!/src/api/schema.d.ts'], {
  query: '?raw',
  import: 'default',
  eager: true,
});

describe('web import boundaries', () => {
  it('finds no cross-feature import, and nothing outside app/ imports a feature it may not', () => {
    const files = Object.fromEntries(Object.entries(sources).map(([path, text]) => [path.slice(1), text]));
    expect(Object.keys(files).length).toBeGreaterThan(100);
    expect(boundaryViolations(files)).toEqual([]);
  });

  it('reads static, re-exported, bare and lazy imports', () => {
    const source = [
      "import { a } from '../a';",
      "export { b } from './b';",
      "import '../c.css';",
      'import {\n  d,\n} from "../../d";',
      "const E = lazy(() => import('../e'));",
      "import { f } from 'react';",
    ].join('\n');
    expect(relativeImports(source).sort()).toEqual(['../../d', '../a', '../c.css', '../e', './b']);
  });

  it('fails on a fixture that breaks each rule, and passes the imports the rule allows', () => {
    const fixture = {
      'src/features/worlds/components/WorldCard.tsx': [
        "import { can } from '../../../lib/guild-access';",
        "import { ConfirmDialog } from '../../../components/ConfirmDialog';",
        "import { api } from '../../../api/client';",
        "import { useWorld } from '../api/world';",
        "import { VrchatTab } from '../../vrchat-settings';",
      ].join('\n'),
      'src/features/members/index.ts':
        "export const Tab = lazy(() => import('../worlds/components/WorldCard'));",
      'src/lib/sync/components/SyncNow.tsx': "import { routes } from '../../../app/routes';",
      'src/components/Badge.tsx': "import { WorldCard } from '../features/worlds/components/WorldCard';",
      'src/app/TabContent.tsx': "import { WorldsTab } from '../features/worlds';",
    };
    expect(boundaryViolations(fixture)).toEqual([
      {
        file: 'src/features/worlds/components/WorldCard.tsx',
        imports: 'src/features/vrchat-settings',
        rule: 'a feature imports no other feature',
      },
      {
        file: 'src/features/members/index.ts',
        imports: 'src/features/worlds/components/WorldCard',
        rule: 'a feature imports no other feature',
      },
      {
        file: 'src/lib/sync/components/SyncNow.tsx',
        imports: 'src/app/routes',
        rule: 'only app/, testing/, main.tsx and tests import app/',
      },
      {
        file: 'src/components/Badge.tsx',
        imports: 'src/features/worlds/components/WorldCard',
        rule: 'components/ imports no feature',
      },
    ]);
  });
});
