/** A product check's problems as the messages of a refused call, each naming line_file and where in it. */
import type { checkProductPackage } from './check.js';

export function problemsOf(check: ReturnType<typeof checkProductPackage>): string[] {
  const messages = check.problems.map((problem) => `line_file: ${problem.file}${problem.path ? ` at ${problem.path}` : ''}: ${problem.problem}`);
  for (const run of check.worksheets) {
    for (const difference of run.differences) messages.push(`line_file: worksheet ${run.file} (${run.name}): ${difference.figure}: expected ${difference.expected}, rated ${difference.actual}`);
  }
  return messages;
}
