/**
 * The rehearsal (infra/rehearsal) on a real, bundled assembly of the fixture service
 * (test/infra/fixtures), synthesized into a temporary directory: it passes as synthesized, and
 * fails naming the function on doctored copies (a bundle that lacks a module, a template that
 * drops an environment variable or a grant, an unknown resource type, a dangling reference).
 * The app itself is never edited: each case doctors its own copy of the assembly.
 */
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App } from 'aws-cdk-lib';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { defineService } from '../../infra/service.js';
import { rehearse, type RehearsalReport } from '../../infra/rehearsal/rehearse.js';
import type { EmbeddedStores } from '../../infra/local/stores.js';
import { FIXTURES } from './helpers.js';

const CDK_CONTEXT = JSON.parse(readFileSync(new URL('../../cdk.json', import.meta.url), 'utf8')).context as Record<string, unknown>;
const READ_THING = 'POST /api/v2/fixture/read_thing';

let scratch: string;
let assembly: string;
let stores: EmbeddedStores;

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'rehearsal-test-'));
  assembly = join(scratch, 'cdk.out');
  // As the CLI synthesizes: asset metadata names each function's and nested template's file.
  const app = new App({ outdir: assembly, context: { ...CDK_CONTEXT, 'aws:cdk:enable-asset-metadata': true } });
  await defineService(app, { functionsDir: join(FIXTURES, 'functions'), eventsDir: join(FIXTURES, 'events') });
  app.synth();
  stores = { ...inject('stores'), stop: async () => undefined };
}, 180_000);

afterAll(() => {
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

/** A copy of the assembly, changed by `doctor`. */
function doctored(name: string, doctor: (dir: string) => void): string {
  const dir = join(scratch, name);
  cpSync(assembly, dir, { recursive: true });
  doctor(dir);
  return dir;
}

/** Edits, in place, the template holding the function described `description`. */
function editFunction(dir: string, description: string, edit: (fn: any, template: any, logicalId: string) => void) {
  for (const file of readdirSync(dir).filter((name) => name.endsWith('.template.json'))) {
    const template = JSON.parse(readFileSync(join(dir, file), 'utf8'));
    for (const [logicalId, resource] of Object.entries<any>(template.Resources ?? {})) {
      if (resource.Type === 'AWS::Lambda::Function' && resource.Properties?.Description === description) {
        edit(resource, template, logicalId);
        writeFileSync(join(dir, file), JSON.stringify(template));
        return;
      }
    }
  }
  throw new Error(`no function described ${description}`);
}

const run = (assemblyDir: string): Promise<RehearsalReport> => rehearse({ assemblyDir, stores, log: () => undefined });

describe('npm run rehearse on the fixture service', () => {
  it('passes as synthesized: every route served by its bundle, the custom resources run', async () => {
    const report = await run(assembly);
    expect(report.findings).toEqual([]);
    expect(report.counts).toMatchObject({ routes: expect.any(Number), customResources: 2, eventSourceMappings: 2, rules: 1 });
    expect(report.counts.routes).toBeGreaterThanOrEqual(3);
    // write_thing is traced: its probe sent its X-Ray segments, with its table call, to the stand-in daemon.
    expect(report.counts.tracedInvoked).toBe(1);
  }, 120_000);

  it('fails naming the function when its template turns X-Ray tracing on and its handler records nothing', async () => {
    const dir = doctored('traced-in-template-only', (copy) => editFunction(copy, READ_THING, (fn) => (fn.Properties.TracingConfig = { Mode: 'Active' })));
    const report = await run(dir);
    expect(report.ok).toBe(false);
    expect(report.findings.join('\n')).toMatch(/read_thing\): traced \(TracingConfig Active\) but its \d+ invocations sent no X-Ray segment/);
  }, 120_000);

  it("fails naming the function when its bundle lacks a module (here zod, which the project's node_modules has)", async () => {
    const dir = doctored('lacks-module', (copy) =>
      editFunction(copy, READ_THING, (fn) => {
        const entry = join(copy, fn.Metadata['aws:asset:path'], 'index.mjs');
        writeFileSync(entry, `import { z as leftOut } from "zod";\nvoid leftOut;\n${readFileSync(entry, 'utf8')}`);
      }),
    );
    const report = await run(dir);
    expect(report.ok).toBe(false);
    expect(report.findings.join('\n')).toMatch(/read_thing[\s\S]*(does not load|answered 5\d\d)[\s\S]*zod/);
  }, 120_000);

  it('fails naming the function and the variable when the template drops its TABLE_NAME', async () => {
    const dir = doctored('drops-variable', (copy) => editFunction(copy, READ_THING, (fn) => delete fn.Properties.Environment.Variables.TABLE_NAME));
    const report = await run(dir);
    expect(report.ok).toBe(false);
    expect(report.findings.join('\n')).toMatch(/read_thing[\s\S]*TABLE_NAME/);
  }, 120_000);

  it("fails naming the function when its role lacks the grant on the table its environment names", async () => {
    const dir = doctored('drops-grant', (copy) =>
      editFunction(copy, READ_THING, (fn, template) => {
        const role = fn.Properties.Role['Fn::GetAtt'][0];
        for (const resource of Object.values<any>(template.Resources)) {
          if (resource.Type !== 'AWS::IAM::Policy' || !resource.Properties.Roles.some((entry: any) => entry.Ref === role)) continue;
          resource.Properties.PolicyDocument.Statement = resource.Properties.PolicyDocument.Statement.filter(
            (statement: any) => ![statement.Action].flat().some((action: string) => action.startsWith('dynamodb:')),
          );
        }
      }),
    );
    const report = await run(dir);
    expect(report.findings.join('\n')).toMatch(/read_thing.*TABLE_NAME names table .*granted none/);
  }, 120_000);

  it('fails naming the resource on a type outside the allow-list and on a reference that does not resolve', async () => {
    const unknownType = doctored('unknown-type', (copy) =>
      editFunction(copy, READ_THING, (_fn, template) => {
        template.Resources.Bastion = { Type: 'AWS::EC2::Instance', Properties: {} };
      }),
    );
    expect((await run(unknownType)).findings.join('\n')).toMatch(/\/Bastion: resource type AWS::EC2::Instance is not in the rehearsal's allow-list/);

    const dangling = doctored('dangling-reference', (copy) =>
      editFunction(copy, READ_THING, (fn) => {
        fn.Properties.Environment.Variables.EXTRA_TABLE = { Ref: 'TableThatIsNotThere' };
      }),
    );
    expect((await run(dangling)).findings.join('\n')).toMatch(/readthingFunction\w*: Ref to TableThatIsNotThere, which .* does not declare/);
  }, 120_000);
});
