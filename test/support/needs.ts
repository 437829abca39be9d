/**
 * What the tests need from the machine besides Node, checked once before any test file runs,
 * so that a missing tool fails `npm test` in one line naming it (and how to get it) instead of
 * deep inside a test. `.ci/run` installs each from Debian's packages when it is missing.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { CHROMIUM_PATH } from './browser.js';

interface Need {
  what: string;
  forWhat: string;
  install: string;
  present(): boolean;
}

const runs = (command: string, args: string[]) => {
  const result = spawnSync(command, args, { stdio: 'ignore' });
  return !result.error && result.status === 0;
};

const JAVA: Need = { what: 'Java (java)', forWhat: 'DynamoDB Local, the embedded database', install: 'apt-get install default-jre-headless', present: () => runs('java', ['-version']) };
const POPPLER: Need = { what: 'poppler-utils (pdftotext)', forWhat: 'reading rendered PDFs back in the document tests', install: 'apt-get install poppler-utils', present: () => runs('pdftotext', ['-v']) };
const CHROMIUM: Need = { what: `Chromium (${CHROMIUM_PATH})`, forWhat: 'the browser tests', install: 'apt-get install chromium, or set CHROMIUM_PATH', present: () => existsSync(CHROMIUM_PATH) };

/** What each test project needs (the unit tests need nothing). */
export const NEEDS_OF_PROJECT: Record<string, Need[]> = {
  integration: [JAVA, POPPLER],
  infra: [JAVA],
  e2e: [JAVA, CHROMIUM],
};

/** One line naming what is missing for the project, or undefined when nothing is. */
export function missingNeeds(project: string): string | undefined {
  const missing = (NEEDS_OF_PROJECT[project] ?? []).filter((need) => !need.present());
  if (missing.length === 0) return undefined;
  return `The ${project} tests need ${missing.map((need) => `${need.what} for ${need.forWhat} (${need.install})`).join('; and ')}: not found on this machine (.ci/run installs them)`;
}
