/**
 * README.md is a newcomer's path (issue 44): what the service is, the two commands, a first call,
 * the walk, deploying, how the pieces fit, where to read on. The bench's figures and their history
 * are docs/bench.md's and docs/cost.md's, which it links; it carries none of them itself.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
const sections = [...readme.matchAll(/^## (.+)$/gm)].map((match) => match[1]);
const at = (title: string) => sections.findIndex((section) => section.startsWith(title));

describe("README.md, a newcomer's path", () => {
  it('goes from the two commands and a first call through the walk to deploying, how the pieces fit and where to read on', () => {
    expect(sections.slice(0, 3)).toEqual(['The two commands', 'A first call', 'Quote, bind, issue, pay, cancel']);
    const path = ['A first call', 'Quote, bind, issue, pay, cancel', 'Deploying to AWS', 'How the pieces fit', 'Where to read on'].map(at);
    expect(path.every((index) => index >= 0), sections.join(' | ')).toBe(true);
    expect([...path].sort((a, b) => a - b)).toEqual(path);
  });

  it('leaves the bench\'s figures to docs/bench.md and docs/cost.md, and links both', () => {
    const measured = readme
      .split('\n')
      .map((line, index) => ({ line, number: index + 1 }))
      // A measurement: its load, its percentiles, its capacity units, its ratio to the baseline, the dated run it came from.
      .filter(({ line }) => /load average|\bp(50|99)\b|\d ?(RCU|WCU)\b|\d(\.\d+)?× baseline|\b(run|measured)( of)? 20\d\d-\d\d-\d\d/i.test(line));
    expect(measured.map(({ line, number }) => `README.md:${number}: ${line.slice(0, 100)}`)).toEqual([]);
    expect(readme).toContain('](docs/bench.md)');
    expect(readme).toContain('](docs/cost.md)');
  });
});
