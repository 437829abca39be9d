import { beforeAll, describe, expect, it } from 'vitest';
import { Match, type Template } from 'aws-cdk-lib/assertions';
import { ADMINISTRATOR_API_KEY_LENGTH, bootstrapAdministratorWrites } from '../../infra/constructs/bootstrap-administrator.js';
import { referenceCatalogHash } from '../../infra/constructs/reference-catalog-seed.js';
import { BOOTSTRAP_ADMINISTRATOR_ID } from '../../shared/auth/bootstrap-administrator.js';
import { GLOBAL_INDEXES, TTL_ATTRIBUTE } from '../../shared/platform/table.js';
import { QUEUE_NAMES, QUEUES, TABLE_PIPES } from '../../shared/platform/queues.js';
import { pascal } from '../../infra/naming.js';
import { allActions, resourcesOf, serviceFunctions, statementsOf, synthesize } from './helpers.js';

let data: Template;
let auth: Template;
beforeAll(async () => {
  const synth = await synthesize();
  data = synth.template(synth.service.data);
  auth = synth.template(synth.service.auth);
}, 120_000);

describe('the table', () => {
  it('is on-demand with point-in-time recovery, TTL on expiresAt, and kept when the stack goes', () => {
    data.resourceCountIs('AWS::DynamoDB::Table', 1);
    data.hasResource('AWS::DynamoDB::Table', {
      Properties: Match.objectLike({
        BillingMode: 'PAY_PER_REQUEST',
        PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
        TimeToLiveSpecification: { AttributeName: TTL_ATTRIBUTE, Enabled: true },
        KeySchema: [
          { AttributeName: 'pk', KeyType: 'HASH' },
          { AttributeName: 'sk', KeyType: 'RANGE' },
        ],
        DeletionProtectionEnabled: true,
      }),
      DeletionPolicy: 'Retain',
      UpdateReplacePolicy: 'Retain',
    });
  });

  it('has the global secondary indexes of the data model', () => {
    const table = Object.values(resourcesOf(data, 'AWS::DynamoDB::Table'))[0].Properties!;
    const indexes = table.GlobalSecondaryIndexes.map((index: any) => ({
      indexName: index.IndexName,
      partition: index.KeySchema[0].AttributeName,
      sort: index.KeySchema[1].AttributeName,
      projection: index.Projection.ProjectionType,
    }));
    expect(indexes).toEqual(GLOBAL_INDEXES.map((index) => ({ ...index, projection: 'ALL' })));
  });
});

describe('the documents bucket', () => {
  it('is encrypted, blocks public access, and refuses plain HTTP', () => {
    data.hasResourceProperties('AWS::S3::Bucket', {
      BucketEncryption: { ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }] },
      PublicAccessBlockConfiguration: { BlockPublicAcls: true, BlockPublicPolicy: true, IgnorePublicAcls: true, RestrictPublicBuckets: true },
    });
    data.hasResourceProperties('AWS::S3::BucketPolicy', {
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({ Effect: 'Deny', Action: 's3:*', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
        ]),
      },
    });
  });
});

describe('the queues', () => {
  it('are the queue table\'s (shared/platform/queues.ts), each with its dead-letter queue, receive count, visibility timeout and retention', () => {
    const queues = resourcesOf(data, 'AWS::SQS::Queue');
    const deadLetterIds = new Set(
      Object.values(queues)
        .map((queue) => queue.Properties?.RedrivePolicy?.deadLetterTargetArn?.['Fn::GetAtt']?.[0] as string | undefined)
        .filter(Boolean),
    );
    const working = Object.entries(queues).filter(([id]) => !deadLetterIds.has(id));
    const byName = new Map(working.map(([id, queue]) => [id.replace(/Queue[0-9A-F]{8}$/, ''), queue]));
    expect([...byName.keys()].sort()).toEqual(QUEUE_NAMES.map(pascal).sort());
    for (const name of QUEUE_NAMES) {
      const queue = byName.get(pascal(name))!;
      const settings = QUEUES[name];
      expect(queue.Properties!.RedrivePolicy.maxReceiveCount, name).toBe(settings.maxReceiveCount);
      expect(queue.Properties!.VisibilityTimeout, name).toBe(settings.visibilityTimeoutSeconds);
      // Longer than a consumer may run (60 s), as Lambda requires.
      expect(queue.Properties!.VisibilityTimeout, name).toBeGreaterThanOrEqual(60);
      expect(queue.Properties!.MessageRetentionPeriod, name).toBe(settings.retentionDays * 86_400);
      const deadLetter = queues[queue.Properties!.RedrivePolicy.deadLetterTargetArn['Fn::GetAtt'][0]];
      expect(deadLetter.Properties!.MessageRetentionPeriod, name).toBe(settings.deadLetterRetentionDays * 86_400);
    }
    expect(deadLetterIds.size).toBe(working.length);
    for (const queue of Object.values(queues)) expect(queue.Properties!.SqsManagedSseEnabled).toBe(true);
  });

  it('pipes each new item of TABLE_PIPES\' entities from the table\'s stream to its queue, dead-lettering what it cannot send', () => {
    data.hasResourceProperties('AWS::DynamoDB::Table', { StreamSpecification: { StreamViewType: 'NEW_IMAGE' } });
    const pipes = Object.values(resourcesOf(data, 'AWS::Pipes::Pipe'));
    expect(pipes).toHaveLength(TABLE_PIPES.length);
    const queues = resourcesOf(data, 'AWS::SQS::Queue');
    for (const [index, pipe] of TABLE_PIPES.entries()) {
      const properties = pipes[index].Properties!;
      expect(JSON.stringify(properties.Source)).toContain('StreamArn');
      expect(properties.Target['Fn::GetAtt'][0]).toMatch(new RegExp(`^${pascal(pipe.queue)}Queue`));
      expect(JSON.parse(properties.SourceParameters.FilterCriteria.Filters[0].Pattern)).toEqual({ eventName: ['INSERT'], dynamodb: { NewImage: { entity: { S: [pipe.entity] } } } });
      expect(properties.TargetParameters.InputTemplate).toBe(`{"${pipe.attribute}": "<$.dynamodb.NewImage.${pipe.attribute}.S>"}`);
      const deadLetter = properties.SourceParameters.DynamoDBStreamParameters.DeadLetterConfig.Arn['Fn::GetAtt'][0];
      expect(deadLetter).toMatch(new RegExp(`^${pascal(pipe.queue)}DeadLetterQueue`));
      expect(queues[deadLetter]).toBeDefined();
    }
  });

  it('alarms as soon as a message waits in a dead-letter queue', () => {
    const queues = resourcesOf(data, 'AWS::SQS::Queue');
    const deadLetterIds = Object.values(queues).map((queue) => queue.Properties?.RedrivePolicy?.deadLetterTargetArn?.['Fn::GetAtt']?.[0]).filter(Boolean);
    const alarms = Object.values(resourcesOf(data, 'AWS::CloudWatch::Alarm')).filter(
      (alarm) => alarm.Properties!.MetricName === 'ApproximateNumberOfMessagesVisible',
    );
    expect(alarms.map((alarm) => alarm.Properties!.Dimensions[0].Value['Fn::GetAtt'][0]).sort()).toEqual([...deadLetterIds].sort());
    for (const alarm of alarms) {
      expect(alarm.Properties!).toMatchObject({ Threshold: 0, ComparisonOperator: 'GreaterThanThreshold', Namespace: 'AWS/SQS' });
      expect(alarm.Properties!.AlarmActions).toHaveLength(1);
    }
  });
});

describe('the reference catalog seed', () => {
  it('runs again exactly when the catalog changes: its properties carry a hash of the records', () => {
    data.hasResourceProperties('Custom::ReferenceCatalog', { CatalogHash: referenceCatalogHash(), RecordCount: Match.anyValue() });
  });

  it('may write catalog records and read whether a product version was published, nothing else', () => {
    const [seedId] = Object.entries(serviceFunctions(data)).find(([, fn]) => /reference product catalog/.test(fn.Properties!.Description))!;
    const statements = statementsOf(data, seedId);
    expect([...allActions(statements)].sort()).toEqual(['dynamodb:BatchWriteItem', 'dynamodb:PutItem', 'dynamodb:Query']);
    const bySid = Object.fromEntries(statements.map((statement: { Sid?: string }) => [statement.Sid, statement]));
    expect(bySid.WriteCatalog.Condition).toEqual({ 'ForAllValues:StringEquals': { 'dynamodb:LeadingKeys': ['CATALOG'] } });
    expect(bySid.ReadProductVersions.Condition).toEqual({ 'ForAllValues:StringEquals': { 'dynamodb:LeadingKeys': ['PRODUCTVERSION'] } });
  });
});

describe('Cognito', () => {
  it('issues client-credentials tokens with the insurance-admin/api scope from a hosted domain', () => {
    auth.hasResourceProperties('AWS::Cognito::UserPoolResourceServer', {
      Identifier: 'insurance-admin',
      Scopes: [Match.objectLike({ ScopeName: 'api' })],
    });
    auth.hasResourceProperties('AWS::Cognito::UserPoolClient', {
      GenerateSecret: true,
      AllowedOAuthFlows: ['client_credentials'],
      AllowedOAuthScopes: [Match.anyValue()],
      AllowedOAuthFlowsUserPoolClient: true,
    });
    auth.resourceCountIs('AWS::Cognito::UserPoolDomain', 1);
    auth.hasResource('AWS::Cognito::UserPool', { DeletionPolicy: 'Retain' });
  });
});

describe('the URL override encryption key secret', () => {
  it('is generated as 64 hex digits (32 bytes, the form secrets.ts reads) and kept when the stack goes', () => {
    const secrets = Object.values(resourcesOf(data, 'AWS::SecretsManager::Secret')).filter((candidate) => /URL overrides/.test(candidate.Properties!.Description));
    expect(secrets).toHaveLength(1);
    const [secret] = secrets;
    expect(secret).toMatchObject({ DeletionPolicy: 'Retain', UpdateReplacePolicy: 'Retain' });
    const rules = secret.Properties!.GenerateSecretString;
    expect(rules).toMatchObject({ PasswordLength: 64, ExcludePunctuation: true, ExcludeUppercase: true, IncludeSpace: false });
    expect(rules).not.toHaveProperty('SecretStringTemplate');
    // What Secrets Manager may still draw from: digits and lowercase letters not excluded.
    const alphabet = [...'0123456789abcdefghijklmnopqrstuvwxyz'].filter((character) => !rules.ExcludeCharacters.includes(character));
    expect(alphabet.join('')).toBe('0123456789abcdef');
  });
});

describe('bootstrap access after deploy', () => {
  const only = (type: string) => {
    const found = Object.entries(resourcesOf(auth, type));
    expect(found).toHaveLength(1);
    return found[0];
  };
  const seed = () => Object.entries(serviceFunctions(auth)).find(([, fn]) => /bootstrap Administrator/.test(fn.Properties!.Description))!;

  it('ensures the Administrator with its key taken from a generated secret: the template holds a reference, never the key', () => {
    const [secretId, secret] = only('AWS::SecretsManager::Secret');
    expect(secret.Properties!.GenerateSecretString).toMatchObject({ PasswordLength: ADMINISTRATOR_API_KEY_LENGTH, ExcludePunctuation: true, IncludeSpace: false });
    const [clientId] = only('AWS::Cognito::UserPoolClient');
    const [, resource] = only('Custom::BootstrapAdministrator');
    expect(resource.Properties).toMatchObject({
      ContactId: BOOTSTRAP_ADMINISTRATOR_ID,
      ServiceClientId: { Ref: clientId },
      AdministratorApiKey: { 'Fn::Join': ['', ['{{resolve:secretsmanager:', { Ref: secretId }, ':SecretString:::}}']] },
    });
    // The operator finds the secret by this output.
    auth.hasOutput('AdministratorApiKeySecretArn', { Value: { Ref: secretId } });
    auth.hasOutput('TokenScope', { Value: 'insurance-admin/api' });
  });

  it('never logs the event carrying the resolved key: the provider framework logs nothing below FATAL', () => {
    const [, resource] = only('Custom::BootstrapAdministrator');
    const frameworkId = resource.Properties!.ServiceToken['Fn::GetAtt'][0] as string;
    expect(resourcesOf(auth)[frameworkId].Properties!.LoggingConfig).toMatchObject({ LogFormat: 'JSON', ApplicationLogLevel: 'FATAL' });
    expect(JSON.stringify(seed()[1].Properties!.Environment)).not.toContain('secretsmanager');
  });

  it("may write exactly the Administrator's records: no reads, no deletes, no secret access", () => {
    const [seedId] = seed();
    const statements = statementsOf(auth, seedId);
    // ConditionCheckItem: the Administrator's contact only (its version, against which its key's copy of its access is checked).
    expect([...allActions(statements)].sort()).toEqual(['dynamodb:ConditionCheckItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem']);
    const [clientId] = only('AWS::Cognito::UserPoolClient');
    const writes = bootstrapAdministratorWrites('CLIENT');
    const expected = (patterns: string[]) => patterns.map((pattern) => (pattern === 'OAUTHCLIENT#CLIENT' ? { 'Fn::Join': ['', ['OAUTHCLIENT#', { Ref: clientId }]] } : pattern));
    const leadingKeys = (action: string) =>
      statements.find((statement) => statement.Action === action)!.Condition!['ForAllValues:StringLike']['dynamodb:LeadingKeys'];
    expect(leadingKeys('dynamodb:PutItem')).toEqual(expected(writes.put));
    expect(leadingKeys('dynamodb:UpdateItem')).toEqual(expected(writes.update));
    expect(leadingKeys('dynamodb:ConditionCheckItem')).toEqual(writes.check);
  });
});
