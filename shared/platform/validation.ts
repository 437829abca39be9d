import type { z } from 'zod';

/** One message per offending field path, worded for the caller. */
export function describeIssues(issues: readonly z.core.$ZodIssue[]): string[] {
  return issues.map((issue) => {
    const path = issue.path.length > 0 ? issue.path.map(String).join('.') : 'body';
    if (issue.code === 'invalid_type' && /received undefined$/.test(issue.message)) return `${path}: is required`;
    return `${path}: ${issue.message}`;
  });
}
