/**
 * A function's declared resources against its role: every table, bucket or queue its
 * environment points at (TABLE_NAME, BUCKET_NAME, <QUEUE>_QUEUE_URL) needs an Allow statement
 * on that resource's ARN with an action of its service, and a queue it consumes through an event
 * source mapping needs receive and delete. This is a reading of the template, not IAM's
 * evaluation (conditions, boundaries, SCPs, resource policies are not weighed): a grant that is
 * missing altogether is what it catches.
 */
export interface PolicyStatement {
  Effect: string;
  Action: string | string[];
  Resource: string | string[];
  Condition?: unknown;
}

interface LocalKinds {
  kindOf(resource: string): { kind: 'table' | 'bucket' | 'queue'; arn: string } | undefined;
}

const matches = (pattern: string, value: string) => new RegExp(`^${pattern.split('*').map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`).test(value);

/** Whether some Allow statement grants `action` on `arn` (or, for a bucket, on its objects). */
export function allows(statements: PolicyStatement[], action: string, arns: string[]): boolean {
  return statements.some(
    (statement) =>
      statement.Effect === 'Allow' &&
      [statement.Action].flat().some((pattern) => matches(pattern, action)) &&
      [statement.Resource].flat().some((pattern) => arns.some((arn) => matches(String(pattern), arn))),
  );
}

/** What the function must be able to do with a resource its environment names: one of these at least. */
const NEEDED: Record<'table' | 'bucket' | 'queue', { anyOf: string[]; on: (arn: string) => string[] }> = {
  // The deploy-time seeds only write (Put/Update/BatchWrite on their own partitions); every other function reads.
  table: { anyOf: ['dynamodb:GetItem', 'dynamodb:Query', 'dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:BatchWriteItem'], on: (arn) => [arn] },
  bucket: { anyOf: ['s3:GetObject', 's3:PutObject'], on: (arn) => [`${arn}/probe`] },
  queue: { anyOf: ['sqs:SendMessage'], on: (arn) => [arn] },
};

export function checkGrants(options: {
  name: string;
  environmentResources: Map<string, Set<string>>;
  consumedQueueArns: string[];
  statements: PolicyStatement[];
  local: LocalKinds;
}): string[] {
  const findings: string[] = [];
  for (const [variable, resources] of options.environmentResources) {
    for (const resource of resources) {
      const kind = options.local.kindOf(resource);
      if (!kind) continue;
      const needed = NEEDED[kind.kind];
      if (!needed.anyOf.some((action) => allows(options.statements, action, needed.on(kind.arn)))) {
        findings.push(`${options.name}: ${variable} names ${kind.kind} ${resource}, but its role is granted none of ${needed.anyOf.join(', ')} on it`);
      }
    }
  }
  for (const arn of options.consumedQueueArns) {
    const missing = ['sqs:ReceiveMessage', 'sqs:DeleteMessage'].filter((action) => !allows(options.statements, action, [arn]));
    if (missing.length) findings.push(`${options.name}: consumes ${arn}, but its role is not granted ${missing.join(', ')} on it`);
  }
  return findings;
}
