/**
 * CloudFormation custom resource (custom-resources Provider onEvent handler) that writes the
 * reference product's catalog into the table. Wired by infra/constructs/reference-catalog-seed.ts,
 * which passes a hash of the records as a property: an update arrives exactly when the
 * catalog changed. Writes are idempotent (a record with the same key is replaced).
 * Deleting the resource leaves the catalog in place: the table outlives the stack.
 */
import type { CloudFormationCustomResourceEvent } from 'aws-lambda';
import { seedReferenceCatalog } from '../../shared/catalog/index.js';

export const PHYSICAL_RESOURCE_ID = 'reference-catalog';

export interface SeedResponse {
  PhysicalResourceId: string;
  Data?: { RecordCount: number };
}

export async function handler(event: CloudFormationCustomResourceEvent): Promise<SeedResponse> {
  if (event.RequestType === 'Delete') return { PhysicalResourceId: event.PhysicalResourceId };
  const written = await seedReferenceCatalog();
  console.log(JSON.stringify({ message: 'reference catalog written', requestType: event.RequestType, records: written }));
  return { PhysicalResourceId: PHYSICAL_RESOURCE_ID, Data: { RecordCount: written } };
}
