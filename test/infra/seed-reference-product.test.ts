import type { CloudFormationCustomResourceEvent } from 'aws-lambda';
import { beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { handler, PHYSICAL_RESOURCE_ID } from '../../events/bootstrap/seed-reference-product.js';
import { applyLocalEnvironment, newLocalResourceNames, provisionResources } from '../../infra/local/bootstrap.js';
import { referenceCatalogRecords } from '../../shared/catalog/reference-data.js';
import { forgetCatalogCache, getCarrierSettings, listRoles } from '../../shared/catalog/store.js';

function event(RequestType: 'Create' | 'Update' | 'Delete'): CloudFormationCustomResourceEvent {
  return {
    RequestType,
    ServiceToken: 'arn:aws:lambda:us-east-1:000000000000:function:provider',
    ResponseURL: 'https://example.invalid/response',
    StackId: 'arn:aws:cloudformation:us-east-1:000000000000:stack/InsuranceAdmin-Data/1',
    RequestId: 'request-1',
    LogicalResourceId: 'ReferenceCatalog',
    ResourceType: 'Custom::ReferenceCatalog',
    ResourceProperties: { ServiceToken: 'token', CatalogHash: 'hash' },
    ...(RequestType === 'Create' ? {} : { PhysicalResourceId: PHYSICAL_RESOURCE_ID }),
    ...(RequestType === 'Update' ? { OldResourceProperties: { CatalogHash: 'old' } } : {}),
  } as CloudFormationCustomResourceEvent;
}

beforeAll(async () => {
  const stores = { ...inject('stores'), stop: async () => undefined };
  const names = newLocalResourceNames();
  applyLocalEnvironment(stores, names, 'http://localhost:1');
  await provisionResources(names);
});

describe('reference catalog seed (custom resource handler)', () => {
  it('writes every catalog record on create, so the catalog reads work', async () => {
    const response = await handler(event('Create'));
    expect(response).toEqual({ PhysicalResourceId: PHYSICAL_RESOURCE_ID, Data: { RecordCount: referenceCatalogRecords().length } });
    forgetCatalogCache();
    expect((await getCarrierSettings()).policyNumberPrefix).toBeTruthy();
    expect((await listRoles()).length).toBeGreaterThan(0);
  });

  it('rewrites the records on update and keeps its physical id', async () => {
    expect((await handler(event('Update'))).PhysicalResourceId).toBe(PHYSICAL_RESOURCE_ID);
  });

  it('leaves the catalog in place on delete', async () => {
    expect(await handler(event('Delete'))).toEqual({ PhysicalResourceId: PHYSICAL_RESOURCE_ID });
    forgetCatalogCache();
    expect((await listRoles()).length).toBeGreaterThan(0);
  });
});
