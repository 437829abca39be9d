/**
 * Factor and option tables: the value a table is read by (an answer, the deductible or
 * the limit) and the row that covers it (one value, or an inclusive numeric range).
 */
import type { TableKey, TableRow } from '../catalog/index.js';
import { compareAmounts, formatCents, isDecimal, sameAmount } from '../platform/money.js';
import { answerFor, missingInput, questionName, type StepContext } from './context.js';
import { resolveDeductible, resolveLimit } from './references.js';

/** The value a table is read by, and how messages name it. */
export interface TableValue {
  value: string;
  describe: string;
}

export function tableValue(context: StepContext, key: TableKey): TableValue {
  const { catalog, revision, placed } = context;
  if ('answer' in key) {
    const name = questionName(catalog, key.answer);
    const answer = answerFor(revision, placed.property, key.answer);
    if (answer === undefined) throw missingInput(placed, `the answer to ${name}`);
    return { value: answer, describe: `the answer to ${name} "${answer}"` };
  }
  if ('deductible' in key) {
    const deductible = resolveDeductible(placed);
    if (deductible === null) throw missingInput(placed, 'its deductible');
    return { value: formatCents(deductible), describe: `the deductible ${formatCents(deductible)}` };
  }
  const limit = resolveLimit(catalog, placed);
  if (limit === null) throw missingInput(placed, 'its limit');
  return { value: formatCents(limit), describe: `the limit ${formatCents(limit)}` };
}

/**
 * The first row covering the value: `equals` compares decimals exactly and text without
 * regard to case; `from`..`to` is inclusive and either end may be open; a row with
 * neither covers every value.
 */
export function matchingRow(table: readonly TableRow[], value: string): TableRow | undefined {
  return table.find((row) => rowCovers(row, value));
}

function rowCovers(row: TableRow, value: string): boolean {
  if (row.equals !== undefined) {
    if (isDecimal(row.equals) && isDecimal(value)) return sameAmount(row.equals, value);
    return row.equals.trim().toLowerCase() === value.trim().toLowerCase();
  }
  if (row.from === undefined && row.to === undefined) return true;
  if (!isDecimal(value)) return false;
  if (row.from !== undefined && compareAmounts(value, row.from) < 0) return false;
  if (row.to !== undefined && compareAmounts(value, row.to) > 0) return false;
  return true;
}

/** The row for the table's key, or a `RatingInputError` naming the value no row covers. */
export function rowFor(context: StepContext, stepName: string, key: TableKey, table: readonly TableRow[]): TableRow {
  const { value, describe } = tableValue(context, key);
  const row = matchingRow(table, value);
  if (!row) throw missingInput(context.placed, `${stepName} has no entry for ${describe}`);
  return row;
}
