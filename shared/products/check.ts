/**
 * Checking a product package as the service and `npm run product` do before it can go live:
 * validated (schema, references, known filing mistakes; shared/catalog/package-validation.ts)
 * against the ZIP table's counties, then every worksheet rated through the quote path.
 */
import { packageRecords, productFromRecords, validatePackage, type PackageDocument, type PackageProblem, type ProductPackage } from '../catalog/index.js';
import { countiesOfState } from '../geography/index.js';
import { runWorksheets, type WorksheetRun } from '../quotes/index.js';

export interface ProductCheck {
  package?: ProductPackage;
  /** Problems of the files: when there is any, no worksheet is run. */
  problems: PackageProblem[];
  worksheets: WorksheetRun[];
  /** Valid and every worksheet reproduced to the cent. */
  passed: boolean;
}

export function checkProductPackage(document: PackageDocument, options: { worksheets?: boolean } = {}): ProductCheck {
  const checked = validatePackage(document, (state) => countiesOfState(state).map((county) => county.name));
  if (!checked.package) return { problems: checked.problems, worksheets: [], passed: false };
  const worksheets = options.worksheets === false ? [] : runWorksheets(productFromRecords(packageRecords(checked.package)), checked.package.worksheets);
  return { package: checked.package, problems: [], worksheets, passed: worksheets.every((run) => run.differences.length === 0) };
}
