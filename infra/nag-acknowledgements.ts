/**
 * Why the service departs from rules of cdk-nag's AwsSolutions pack (test/infra/nag.test.ts
 * runs the pack over every stack and fails on any finding not acknowledged here). Each
 * acknowledgement names the rule and the reason; a rule broken anywhere else still fails.
 */
import { Validations } from 'aws-cdk-lib';
import type { IConstruct } from 'constructs';
import type { Service } from './service.js';

const rule = (id: string) => `AwsSolutions::AwsSolutions-${id}`;

/**
 * Findings that cdk-nag reports one per wildcard (`AwsSolutions-IAM5[Resource::...]`) and that
 * CDK's acknowledgements can only name one exact id at a time (ids that embed the tokens of
 * cross-stack references): acknowledged by pattern, each with its reason, by the nag test.
 */
export const NAG_ACKNOWLEDGED_PATTERNS: ReadonlyArray<{ id: RegExp; path?: RegExp; reason: string }> = [
  {
    id: /^AwsSolutions::AwsSolutions-IAM4\[Policy::arn:<AWS::Partition>:iam::aws:policy\/service-role\/AWSLambdaBasicExecutionRole\]$/,
    reason: "AWSLambdaBasicExecutionRole (CDK's default for functions, the only AWS managed policy used) lets a function write its own logs and nothing else.",
  },
  {
    id: /^AwsSolutions::AwsSolutions-IAM5\[Resource::.*Table\w*(\.Arn>|Arn\w*"\}\})\/index\/\*\]$/,
    reason: "The table's own indexes (<table>/index/*): a function that may query the table may query its indexes; no other table is reachable.",
  },
  {
    id: /^AwsSolutions::AwsSolutions-IAM5\[Resource::.*Documents\w*(\.Arn>|Arn\w*"\}\})\/\*\]$/,
    reason: "The documents bucket's objects (<bucket>/*), for the functions declaring `bucket` access; object keys are chosen by the service, not by callers.",
  },
  {
    id: /^AwsSolutions::AwsSolutions-IAM5\[Action::s3:(Abort|DeleteObject|GetBucket|GetObject|List)\*\]$/,
    reason: "CDK's grantRead/grantReadWrite action groups on the documents bucket alone (versions, tags, multipart aborts come with them).",
  },
  {
    id: /^AwsSolutions::AwsSolutions-IAM5\[Resource::<\w+HandlerFunction\w*\.Arn>:\*\]$/,
    path: /\/(ReferenceCatalog|BootstrapAdministrator)\/Provider\//,
    reason: "The custom resource provider framework invokes any version of its own handler (<handler>:*), and only that function.",
  },
  {
    id: /^AwsSolutions::AwsSolutions-IAM5\[Resource::\*\]$/,
    path: /\/(DeliverableRequests|PolicyEvents)PipeRole\/DefaultPolicy\//,
    reason: 'dynamodb:ListStreams takes no resource (it lists the streams of the account); the pipe reads only the table\'s own stream.',
  },
  {
    id: /^AwsSolutions::AwsSolutions-IAM5\[Resource::\*\]$/,
    path: /\/Function\/ServiceRole\/DefaultPolicy\//,
    reason:
      'xray:PutTraceSegments and xray:PutTelemetryRecords take no resource; CDK grants them to the traced functions (the money paths) with active tracing. test/infra/monitoring.test.ts holds every other statement of a function to named resources.',
  },
];

function acknowledge(scope: IConstruct, id: string, reason: string) {
  Validations.of(scope).acknowledge({ id: rule(id), reason });
}

export function acknowledgeNagFindings(service: Service): void {
  const stacks = [service.data, service.auth, service.api, ...(service.workers ? [service.workers] : [])];
  for (const stack of stacks) {
    acknowledge(stack, 'L1', 'nodejs22.x is the runtime the bundles are built and tested for (STACK-NOTES: the pinned AWS SDK, middy 6 and Powertools 2.35); moving runtime is a change of its own, rehearsed first.');
  }
  acknowledge(
    service.api,
    'APIG4',
    'Every operation authenticates its caller in the function (API key, Cognito access token or session: shared/auth/authenticate.ts), and the vendor webhook by its HMAC signature; an API Gateway authorizer would verify the same credential a second time.',
  );
  acknowledge(service.data.bucket, 'S1', 'Who read or wrote a document is recorded by the API (access log, notes); S3 server access logs would need a second bucket per deployment for no question the service answers. Enable CloudTrail data events on the bucket where an auditor asks for object-level records.');
  acknowledge(service.data.urlOverrideEncryptionKey, 'SMG4', 'The key seals stored shared secrets and personal identifiers: rotating it would make what is sealed unreadable. Rotation is a re-sealing migration (docs/deploy.md).');
  acknowledge(service.data.signatureVendorSecret, 'SMG4', 'Rotated by hand with the vendor: the callback accepts a comma-separated list, newest first, while both sides move (docs/deploy.md).');
  if (service.auth.bootstrapAdministrator) {
    acknowledge(service.auth.bootstrapAdministrator.apiKeySecret, 'SMG4', "The bootstrap Administrator's API key: replaced by issuing a new key through the API and revoking this one (docs/deploy.md), not by Secrets Manager.");
  }
  const pool = service.auth.userPool;
  const machinesOnly = 'The user pool issues client-credentials tokens to machines only: self sign-up is off and no person signs in to it with a password.';
  acknowledge(pool, 'COG1', machinesOnly);
  acknowledge(pool, 'COG2', machinesOnly);
  acknowledge(pool, 'COG8', `${machinesOnly} Threat protection (Plus plan) guards user sign-ins, of which there are none.`);
}
