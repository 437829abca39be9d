/**
 * cdk-nag's AwsSolutions pack over every stack of the service (nested ones included), as a CDK
 * policy validation plugin at synthesis: no finding is left unacknowledged, and each
 * acknowledgement says why (infra/nag-acknowledgements.ts: CDK acknowledgements on the constructs, and
 * NAG_ACKNOWLEDGED_PATTERNS for the per-wildcard IAM findings whose ids embed reference tokens). A new construct that breaks a rule
 * fails here, naming the rule and the construct.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NAG_ACKNOWLEDGED_PATTERNS } from '../../infra/nag-acknowledgements.js';
import { defineService } from '../../infra/service.js';
import { FIXTURES } from './helpers.js';

const CDK_CONTEXT = JSON.parse(readFileSync(new URL('../../cdk.json', import.meta.url), 'utf8')).context as Record<string, unknown>;

let outdir: string;
let findings: Array<{ id: string; path: string }>;

/** The findings of CDK's validation report: `ERROR <message>`, the construct path, `Acknowledge with '<id>'`. */
function parseReport(text: string): Array<{ id: string; path: string }> {
  const parsed: Array<{ id: string; path: string }> = [];
  for (const match of text.matchAll(/^\s*(\S+) \S+\s*\n\s*Acknowledge with '([^']+)'/gm)) parsed.push({ path: match[1], id: match[2] });
  return parsed;
}

beforeAll(async () => {
  outdir = mkdtempSync(join(tmpdir(), 'nag-'));
  const app = new App({ outdir, context: { ...CDK_CONTEXT, 'aws:cdk:bundling-stacks': [] } });
  await defineService(app, { eventsDir: join(FIXTURES, 'events') });
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
  try {
    app.synth();
    findings = [];
  } catch (error) {
    findings = parseReport((error as Error).message);
    // A failure that is not a validation report is not cdk-nag's: show it whole.
    if (findings.length === 0) throw error;
  }
}, 180_000);

afterAll(() => {
  if (outdir) rmSync(outdir, { recursive: true, force: true });
});

describe("cdk-nag's AwsSolutions pack", () => {
  it('leaves no finding unacknowledged in any stack: those left are the per-wildcard ones acknowledged by pattern, each with a reason', () => {
    const unacknowledged = findings.filter((finding) => !NAG_ACKNOWLEDGED_PATTERNS.some((pattern) => pattern.id.test(finding.id) && (!pattern.path || pattern.path.test(finding.path))));
    expect(unacknowledged.map((finding) => `${finding.id} at ${finding.path}`)).toEqual([]);
    for (const pattern of NAG_ACKNOWLEDGED_PATTERNS) expect(pattern.reason.length, String(pattern.id)).toBeGreaterThan(40);
  });
});
