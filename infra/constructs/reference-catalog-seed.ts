/**
 * Loads the reference product's catalog into the table on deploy: a CloudFormation custom
 * resource backed by events/bootstrap/seed-reference-product.ts. Its properties carry a
 * hash of the records, so CloudFormation calls it again exactly when the catalog changes.
 */
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { CustomResource, Duration } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as cr from 'aws-cdk-lib/custom-resources';
import { Construct } from 'constructs';
import { catalogSeedPartitions, referenceCatalogRecords } from '../../shared/catalog/index.js';
import type { FunctionBundles } from '../bundles.js';
import { PROJECT_ROOT, ServiceFunction, type DataResources } from './service-function.js';

export const SEED_ENTRY = join(PROJECT_ROOT, 'events', 'bootstrap', 'seed-reference-product.ts');

/** A digest of every catalog record: changes whenever any record or version does. */
export function referenceCatalogHash(): string {
  return createHash('sha256').update(JSON.stringify(referenceCatalogRecords())).digest('hex');
}

export interface ReferenceCatalogSeedProps {
  data: DataResources;
  bundles?: FunctionBundles;
}

export class ReferenceCatalogSeed extends Construct {
  readonly resource: CustomResource;

  constructor(scope: Construct, id: string, props: ReferenceCatalogSeedProps) {
    super(scope, id);
    const seed = new ServiceFunction(this, 'Handler', {
      entry: SEED_ENTRY,
      description: 'Writes the reference product catalog on deploy',
      functionClass: 'deploy',
      data: props.data,
      resources: {},
      timeout: Duration.minutes(5),
      environment: { TABLE_NAME: props.data.table.tableName },
      bundles: props.bundles,
    });
    const partitions = catalogSeedPartitions();
    // Whether a carrier has published its own version: the seed then writes nothing over it.
    seed.function.addToRolePolicy(
      new iam.PolicyStatement({
        sid: 'ReadProductVersions',
        actions: ['dynamodb:Query'],
        resources: [props.data.table.tableArn],
        conditions: { 'ForAllValues:StringEquals': { 'dynamodb:LeadingKeys': partitions.read } },
      }),
    );
    // Only catalog records: batch writes of items in the catalog partition.
    seed.function.addToRolePolicy(
      new iam.PolicyStatement({
        sid: 'WriteCatalog',
        actions: ['dynamodb:BatchWriteItem', 'dynamodb:PutItem'],
        resources: [props.data.table.tableArn],
        conditions: { 'ForAllValues:StringEquals': { 'dynamodb:LeadingKeys': partitions.write } },
      }),
    );
    const provider = new cr.Provider(this, 'Provider', {
      onEventHandler: seed.function,
      logGroup: new logs.LogGroup(this, 'ProviderLogs', { retention: logs.RetentionDays.ONE_MONTH }),
    });
    const records = referenceCatalogRecords();
    this.resource = new CustomResource(this, 'Resource', {
      serviceToken: provider.serviceToken,
      resourceType: 'Custom::ReferenceCatalog',
      properties: {
        CatalogHash: referenceCatalogHash(),
        CatalogVersions: [...new Set(records.map((record) => `${record.kind}@${record.catalogVersion}`))].sort().join(','),
        RecordCount: records.length,
      },
    });
  }
}
