import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { describeBundles, FunctionBundles, runtimeFilesNamedIn } from '../../infra/bundles.js';
import { FUNCTIONS_DIR } from '../../infra/routes.js';
import { FIXTURES } from './helpers.js';
import { httpEvent, lambdaContext } from '../support/events.js';

const READ = join(FIXTURES, 'functions/v2/fixture/read_thing.ts');
const WRITE = join(FIXTURES, 'functions/v2/fixture/write_thing.ts');
const JOB = join(FIXTURES, 'events/schedules/nightly_billing.ts');
// Both import the risk services; only the second looks a ZIP up.
const CREATE_RISK = join(FUNCTIONS_DIR, 'v2/policies/create_risk.ts');
const UPDATE_LOCATION = join(FUNCTIONS_DIR, 'v2/policies/update_property_location.ts');
const ZIP_TABLE = join(FUNCTIONS_DIR, '../shared/geography/zip-table.txt');
// Applies a small file within the call; a large one is started by a module loaded on first use.
const LOCKBOX = join(FUNCTIONS_DIR, 'v2/policies/apply_lockbox_payment_transactions.ts');

// A move: its moratorium check in depth, with the ZIP lookup, is loaded on first use.
const CANCEL = join(FUNCTIONS_DIR, 'v2/policies/cancel_policy.ts');

// A claim's moves ask for its letters in their own transaction; the documents consumer renders them.
const CLAIM_MOVES = ['v2/claims/new_claim.ts', 'v2/claims/update_claim.ts', 'v2/claims/request_reservation_of_rights.ts'].map((path) => join(FUNCTIONS_DIR, path));
const RENDER_DELIVERABLES = join(FUNCTIONS_DIR, '../events/queues/documents/render_deliverables.ts');
// A loss run answers a PDF when asked: the renderer beside it, loaded by the first such request.
const LOSS_RUN = join(FUNCTIONS_DIR, 'v2/claims/loss_run.ts');

const bundles = new FunctionBundles([READ, WRITE, JOB, CREATE_RISK, UPDATE_LOCATION, LOCKBOX, CANCEL, ...CLAIM_MOVES, RENDER_DELIVERABLES, LOSS_RUN]);
afterAll(() => bundles.dispose());

describe('bundling all functions in one esbuild run', () => {
  it('gives each function one minified ESM index.mjs with its source map, tree-shaken for that function alone', () => {
    const read = bundles.directoryFor(READ);
    const job = bundles.directoryFor(JOB);
    expect(read).not.toBe(job);
    for (const dir of [read, job]) {
      expect(readFileSync(join(dir, 'index.mjs'), 'utf8')).toMatch(/sourceMappingURL=index\.mjs\.map\s*$/);
      expect(existsSync(join(dir, 'index.mjs.map'))).toBe(true);
    }
    // The operation also ships what it loads on first use: the bearer token verifier, where a body stopped being JSON, the wording of validation failures.
    expect(readdirSync(read).filter((file) => file.endsWith('.mjs')).sort()).toEqual(['bearer-tokens.mjs', 'index.mjs', 'json-errors.mjs', 'stack-traces.mjs', 'validation-messages.mjs']);
    expect(readdirSync(job).filter((file) => file.endsWith('.mjs'))).toEqual(['index.mjs']);
    // The job reaches none of the operation factory (nor the SDK): it carries none of that code.
    expect(statSync(join(read, 'index.mjs')).size).toBeGreaterThan(100_000);
    expect(statSync(join(job, 'index.mjs')).size).toBeLessThan(5_000);
  }, 120_000);

  it('bundles the AWS SDK and defines require, so a bundle loads with nothing but Node', async () => {
    const dir = bundles.directoryFor(WRITE);
    const code = readFileSync(join(dir, 'index.mjs'), 'utf8');
    expect(code).not.toMatch(/from\s*"@aws-sdk\//);
    expect(code).toContain('__createRequire(import.meta.url)');
    const module = await import(pathToFileURL(join(dir, 'index.mjs')).href);
    expect(typeof module.handler).toBe('function');
    expect(module.handler.operation.name).toBe('write_thing');
  }, 120_000);

  it('ships the ZIP table beside the code of a function that looks ZIPs up, and not into one that only shares its module', () => {
    const updateLocation = bundles.directoryFor(UPDATE_LOCATION);
    const data = (entry: string) => bundles.runtimeFilesOf(entry).filter((file) => !file.endsWith('.mjs'));
    expect(data(UPDATE_LOCATION)).toEqual([ZIP_TABLE]);
    expect(readFileSync(join(updateLocation, 'zip-table.txt'), 'utf8')).toBe(readFileSync(ZIP_TABLE, 'utf8'));

    const createRisk = bundles.directoryFor(CREATE_RISK);
    expect(data(CREATE_RISK)).toEqual([]);
    expect(existsSync(join(createRisk, 'zip-table.txt'))).toBe(false);
    // Neither bundle holds the table's data as code.
    for (const dir of [updateLocation, createRisk]) expect(readFileSync(join(dir, 'index.mjs'), 'utf8')).not.toContain('Holtsville|');
  }, 120_000);

  it('ships a module loaded on first use beside the bundle, built on its own, and keeps its code out of index.mjs', async () => {
    const lockbox = bundles.directoryFor(LOCKBOX);
    expect(readdirSync(lockbox).filter((file) => file.endsWith('.mjs')).sort()).toEqual(['bearer-tokens.mjs', 'index.mjs', 'json-errors.mjs', 'lockbox-runs.mjs', 'money-metrics.mjs', 'refund-pending.mjs', 'stack-traces.mjs', 'validation-messages.mjs']);
    // The large file's S3 upload and chunk sends are in the module beside it, not in what every cold start parses.
    expect(readFileSync(join(lockbox, 'index.mjs'), 'utf8')).not.toContain('"PutObject"');
    expect(readFileSync(join(lockbox, 'lockbox-runs.mjs'), 'utf8')).toContain('"PutObject"');
    const runs = await import(pathToFileURL(join(lockbox, 'lockbox-runs.mjs')).href);
    expect(typeof runs.startLockboxRun).toBe('function');
  }, 120_000);

  it('loads the money moves\' metrics emitter (Powertools Metrics) on the first money move only: a cold start parses none of it', async () => {
    const lockbox = bundles.directoryFor(LOCKBOX);
    expect(readFileSync(join(lockbox, 'index.mjs'), 'utf8')).not.toContain('CloudWatchMetrics');
    expect(readFileSync(join(lockbox, 'money-metrics.mjs'), 'utf8')).toContain('CloudWatchMetrics');
    const emitter = await import(pathToFileURL(join(lockbox, 'money-metrics.mjs')).href);
    expect(typeof emitter.publishMoneyMove).toBe('function');
  }, 120_000);

  it('ships what a module loaded on first use reads beside itself: the moratorium check of a move finds the ZIP table, which its cold start never reads', () => {
    const cancel = bundles.directoryFor(CANCEL);
    expect(readdirSync(cancel).filter((file) => file.endsWith('.mjs')).sort()).toEqual(['bearer-tokens.mjs', 'blocking.mjs', 'index.mjs', 'json-errors.mjs', 'refund-pending.mjs', 'renewal-cancellation.mjs', 'stack-traces.mjs', 'validation-messages.mjs', 'zip-lookup.mjs']);
    expect(readFileSync(join(cancel, 'zip-table.txt'), 'utf8')).toBe(readFileSync(ZIP_TABLE, 'utf8'));
    expect(readFileSync(join(cancel, 'index.mjs'), 'utf8')).not.toContain('zip-table.txt');
    expect(bundles.filesNamedByBundleOf(CANCEL).some((file) => file.endsWith('zip-table.txt'))).toBe(false);
    expect(bundles.runtimeFilesOf(CANCEL)).toContain(ZIP_TABLE);
  }, 120_000);

  it('loads the bearer token verifier on the first bearer call only: an operation parses no JWT code at a cold start', async () => {
    const createRisk = bundles.directoryFor(CREATE_RISK);
    expect(existsSync(join(createRisk, 'bearer-tokens.mjs'))).toBe(true);
    expect(readFileSync(join(createRisk, 'index.mjs'), 'utf8')).not.toContain('Not an access token');
    expect(readFileSync(join(createRisk, 'bearer-tokens.mjs'), 'utf8')).toContain('Not an access token');
    const verifier = await import(pathToFileURL(join(createRisk, 'bearer-tokens.mjs')).href);
    expect(typeof verifier.verifyBearerToken).toBe('function');
    // The bundled operation finds it beside itself: with no issuer configured a bearer call is a 401
    // (a module it could not load would be a 500), judged before any store is read.
    const { handler } = await import(pathToFileURL(join(createRisk, 'index.mjs')).href);
    const saved = { issuer: process.env.JWT_ISSUER, pool: process.env.COGNITO_USER_POOL_ID };
    delete process.env.JWT_ISSUER;
    delete process.env.COGNITO_USER_POOL_ID;
    try {
      // JWT-shaped, so it is judged as a bearer token (anything else in Authorization is read as an API key).
      const token = 'eyJhbGciOiJSUzI1NiJ9.eyJjbGllbnRfaWQiOiJ4In0.c2lnbmF0dXJl';
      const answer = await handler(httpEvent('{}', { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, '/api/v2/policies/create_risk'), lambdaContext);
      expect(answer.statusCode).toBe(401);
    } finally {
      if (saved.issuer !== undefined) process.env.JWT_ISSUER = saved.issuer;
      if (saved.pool !== undefined) process.env.COGNITO_USER_POOL_ID = saved.pool;
    }
  }, 120_000);

  it('describes each bundle as it is built (the docs\' lists of what functions bundle are made from the description): the same modules of ours, the same files beside it', () => {
    const entries = [READ, WRITE, JOB, CREATE_RISK, UPDATE_LOCATION, LOCKBOX, CANCEL];
    const described = describeBundles(entries);
    const ours = (files: string[]) => files.filter((file) => !/[\\/]node_modules[\\/]/.test(file)).sort();
    for (const entry of entries) {
      expect(described.get(entry)!.modules, entry).toEqual(ours(bundles.inputsOf(entry)));
      const beside = (files: string[]) => files.map((file) => basename(file).replace(/\.ts$/, '.mjs')).sort();
      expect(beside(described.get(entry)!.onFirstUse), entry).toEqual(beside(bundles.runtimeFilesOf(entry)));
    }
  });

  it("keeps pdf-lib out of the functions that move a claim, which ask for its letters, and ships the renderer beside the documents consumer that renders them", () => {
    for (const entry of CLAIM_MOVES) {
      expect(readdirSync(bundles.directoryFor(entry)).filter((file) => file.endsWith('.mjs')).sort(), entry).toEqual(['bearer-tokens.mjs', 'index.mjs', 'json-errors.mjs', 'stack-traces.mjs', 'validation-messages.mjs']);
      expect(bundles.inputsOf(entry).filter((input) => input.includes('node_modules/pdf-lib') || input.includes('shared/documents/render/')), entry).toEqual([]);
      // The letter's request is in the bundle: the move writes it.
      expect(bundles.inputsOf(entry).some((input) => input.endsWith('shared/documents/claim-letter-moves.ts')), entry).toBe(true);
      // What a letter says is read when it is rendered: its wording is not in a claim move's bundle.
      expect(bundles.inputsOf(entry).some((input) => input.endsWith('shared/documents/claim-letters.ts')), entry).toBe(false);
    }
    expect(readdirSync(bundles.directoryFor(RENDER_DELIVERABLES))).toContain('pdf-renderer.mjs');
  }, 120_000);

  it('keeps pdf-lib out of the loss run\'s cold start and ships the renderer beside it, for its first PDF', () => {
    expect(bundles.inputsOf(LOSS_RUN).filter((input) => input.includes('node_modules/pdf-lib') || input.includes('shared/documents/render/')), LOSS_RUN).toEqual([]);
    expect(bundles.inputsOf(LOSS_RUN).some((input) => input.endsWith('shared/documents/deliverable-service.ts'))).toBe(false);
    expect(readdirSync(bundles.directoryFor(LOSS_RUN))).toContain('pdf-renderer.mjs');
  }, 120_000);

  it('words a validation failure by the module beside the bundle, loaded by the first request that fails: a cold start parses none of the wording', async () => {
    const read = bundles.directoryFor(READ);
    expect(readFileSync(join(read, 'index.mjs'), 'utf8')).not.toContain('is not in any accepted form');
    expect(readFileSync(join(read, 'validation-messages.mjs'), 'utf8')).toContain('is not in any accepted form');
    const wording = await import(pathToFileURL(join(read, 'validation-messages.mjs')).href);
    expect(typeof wording.houseErrorMap).toBe('function');
    expect(wording.describeIssues([{ code: 'custom', path: ['policy_id'], message: 'give policy_id or policy_number' }])).toEqual(['policy_id: give policy_id or policy_number']);
  }, 120_000);

  it('refuses a bundle that names a file no bundled module has beside it', () => {
    const code = 'const t = readFileSync(new URL("./missing.txt", import.meta.url));';
    expect(() => runtimeFilesNamedIn(code, [join(FUNCTIONS_DIR, '../shared/geography/zip-lookup.ts')])).toThrow(/\.\/missing\.txt/);
  });

  it('refuses an entry it was not given', () => {
    expect(() => bundles.directoryFor(join(FIXTURES, 'nope.ts'))).toThrow(/not registered/);
  });
});
