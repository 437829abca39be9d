/** Reading a product package folder into one document (the CLI and the tests; functions never read folders). */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import type { PackageDocument, PackageProblem } from './package-schema.js';

/** Every .json file under the folder by its path in it; a file that is not JSON is a problem naming it. */
export function readPackageFolder(folder: string): { document: PackageDocument; problems: PackageProblem[] } {
  const document: PackageDocument = {};
  const problems: PackageProblem[] = [];
  const walk = (directory: string) => {
    for (const entry of readdirSync(directory).sort()) {
      const path = join(directory, entry);
      if (statSync(path).isDirectory()) walk(path);
      else if (entry.endsWith('.json')) {
        const file = relative(folder, path).split(sep).join('/');
        try {
          document[file] = JSON.parse(readFileSync(path, 'utf8'));
        } catch (error) {
          problems.push({ file, path: '', problem: `not JSON: ${(error as Error).message}` });
        }
      }
    }
  };
  walk(folder);
  return { document, problems };
}
