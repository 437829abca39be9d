/**
 * The file tree under functions/ is the route table: functions/v2/policies/create_policy.ts
 * serves POST /api/v2/policies/create_policy. The CDK app and the local server both
 * derive their routes from here; there is no second list to keep in step.
 */
import { readdirSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

export const FUNCTIONS_DIR = fileURLToPath(new URL('../functions', import.meta.url));

export interface OperationRoute {
  /** `v1` or `v2`. */
  version: string;
  /** The module segment of the path (`contacts`, `policies`, `auth`, ...). */
  module: string;
  /** The operation segment of the path. */
  name: string;
  /** URL path the operation answers on. */
  path: string;
  /** Absolute path of the entry file. */
  entry: string;
  /** Stable identifier usable in resource names: `v2-policies-create_policy`. */
  id: string;
}

export function listOperationRoutes(functionsDir = FUNCTIONS_DIR): OperationRoute[] {
  const routes: OperationRoute[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.isFile() && entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') && !entry.name.endsWith('.test.ts')) {
        const parts = relative(functionsDir, full).slice(0, -'.ts'.length).split(sep);
        if (parts.length !== 3 || !/^v\d+$/.test(parts[0])) {
          throw new Error(`functions/${parts.join('/')}.ts is not at functions/<version>/<module>/<operation>.ts`);
        }
        const [version, module, name] = parts;
        routes.push({ version, module, name, path: `/api/${version}/${module}/${name}`, entry: full, id: `${version}-${module}-${name}` });
      }
    }
  };
  walk(functionsDir);
  return routes.sort((a, b) => a.path.localeCompare(b.path));
}
