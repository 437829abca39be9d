import { randomBytes } from 'node:crypto';
import { DynamoDBDocumentClient, PutCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { CloudFormationCustomResourceEvent } from 'aws-lambda';
import { beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { handler, PHYSICAL_RESOURCE_ID } from '../../events/bootstrap/ensure-administrator.js';
import { bootstrapAdministratorWrites } from '../../infra/constructs/bootstrap-administrator.js';
import { applyLocalEnvironment, newLocalResourceNames, provisionResources, seedReferenceProduct } from '../../infra/local/bootstrap.js';
import { authenticate } from '../../shared/auth/authenticate.js';
import { BOOTSTRAP_ADMINISTRATOR_ID } from '../../shared/auth/bootstrap-administrator.js';
import { getOAuthClient, listApiKeys } from '../../shared/auth/store.js';

const CLIENT_ID = '4example0cognito0client0id';
/** Like the stack's generated secret: 48 letters and digits. */
const newKey = () => randomBytes(48).toString('base64').replace(/[^A-Za-z0-9]/g, '').slice(0, 48);

function event(RequestType: 'Create' | 'Update' | 'Delete', apiKey: string, clientId = CLIENT_ID): CloudFormationCustomResourceEvent {
  return {
    RequestType,
    ServiceToken: 'arn:aws:lambda:us-east-1:000000000000:function:provider',
    ResponseURL: 'https://example.invalid/response',
    StackId: 'arn:aws:cloudformation:us-east-1:000000000000:stack/InsuranceAdmin-Auth/1',
    RequestId: 'request-1',
    LogicalResourceId: 'BootstrapAdministrator',
    ResourceType: 'Custom::BootstrapAdministrator',
    ResourceProperties: { ServiceToken: 'token', ContactId: BOOTSTRAP_ADMINISTRATOR_ID, ServiceClientId: clientId, AdministratorApiKey: apiKey },
    ...(RequestType === 'Create' ? {} : { PhysicalResourceId: PHYSICAL_RESOURCE_ID }),
    ...(RequestType === 'Update' ? { OldResourceProperties: { ServiceClientId: clientId } } : {}),
  } as CloudFormationCustomResourceEvent;
}

const asAdministrator = async (apiKey: string) => (await authenticate({ apiKey }))?.isAdministrator ?? false;

const firstKey = newKey();

beforeAll(async () => {
  const stores = { ...inject('stores'), stop: async () => undefined };
  const names = newLocalResourceNames();
  applyLocalEnvironment(stores, names, 'http://localhost:1');
  await provisionResources(names);
  // The roles the Administrator's permissions come from (the catalog seed's job on deploy).
  await seedReferenceProduct();
});

describe('bootstrap Administrator seed (custom resource handler)', () => {
  it('on create, makes the secret key work as Administrator and maps the Cognito client to that contact', async () => {
    expect(await asAdministrator(firstKey)).toBe(false);
    const response = await handler(event('Create', firstKey));
    expect(response).toEqual({ PhysicalResourceId: PHYSICAL_RESOURCE_ID, Data: { ContactId: BOOTSTRAP_ADMINISTRATOR_ID } });
    expect(await asAdministrator(firstKey)).toBe(true);
    const client = await getOAuthClient(CLIENT_ID);
    // The client carries the copy of the new contact's access it is judged by (issue 47).
    expect(client).toEqual({ clientId: CLIENT_ID, contactId: BOOTSTRAP_ADMINISTRATOR_ID, access: expect.objectContaining({ contactId: BOOTSTRAP_ADMINISTRATOR_ID, version: 1, terminated: false }) });
  });

  it('writes only records its role is granted, and never reads', async () => {
    // A fresh table, so that every write of a first deploy happens.
    const names = newLocalResourceNames();
    const previousTable = process.env.TABLE_NAME;
    process.env.TABLE_NAME = names.tableName;
    try {
      await provisionResources(names);
      const send = vi.spyOn(DynamoDBDocumentClient.prototype, 'send');
      try {
        await handler(event('Create', newKey(), 'another-client'));
        const writes: Array<{ action: 'put' | 'update' | 'check'; pk: string }> = [];
        for (const [command] of send.mock.calls) {
          if (command instanceof TransactWriteCommand) {
            for (const item of command.input.TransactItems ?? []) {
              if (item.Put) writes.push({ action: 'put', pk: String(item.Put.Item?.pk) });
              else if (item.Update) writes.push({ action: 'update', pk: String(item.Update.Key?.pk) });
              else if (item.ConditionCheck) writes.push({ action: 'check', pk: String(item.ConditionCheck.Key?.pk) });
              else throw new Error(`unexpected transaction item ${JSON.stringify(Object.keys(item))}`);
            }
          } else if (command instanceof PutCommand) writes.push({ action: 'put', pk: String(command.input.Item?.pk) });
          else if (command instanceof UpdateCommand) writes.push({ action: 'update', pk: String(command.input.Key?.pk) });
          else throw new Error(`unexpected ${command.constructor.name}`);
        }
        expect(writes.length).toBeGreaterThan(3);
        const granted = bootstrapAdministratorWrites('another-client');
        const allowed = (patterns: string[], pk: string) =>
          patterns.some((pattern) => (pattern.endsWith('*') ? pk.startsWith(pattern.slice(0, -1)) : pk === pattern));
        for (const write of writes) expect(allowed(granted[write.action], write.pk), `${write.action} ${write.pk}`).toBe(true);
      } finally {
        send.mockRestore();
      }
    } finally {
      process.env.TABLE_NAME = previousTable;
    }
  });

  it('is safe to run again on update: the same key is not issued twice', async () => {
    await handler(event('Update', firstKey));
    expect(await listApiKeys(BOOTSTRAP_ADMINISTRATOR_ID)).toHaveLength(1);
    expect(await asAdministrator(firstKey)).toBe(true);
  });

  it('adds a changed key rather than swapping it, so that callers holding the first keep working', async () => {
    const second = newKey();
    await handler(event('Update', second));
    expect(await asAdministrator(second)).toBe(true);
    expect(await asAdministrator(firstKey)).toBe(true);
  });

  it('leaves the Administrator and its keys in place on delete', async () => {
    expect(await handler(event('Delete', firstKey))).toEqual({ PhysicalResourceId: PHYSICAL_RESOURCE_ID });
    expect(await asAdministrator(firstKey)).toBe(true);
  });

  it('refuses a short key without echoing it, and writes nothing', async () => {
    const short = 'short-key-123';
    const failure = handler(event('Create', short, 'third-client'));
    await expect(failure).rejects.toThrow(/AdministratorApiKey must be a string of at least 32 characters/);
    await failure.catch((error: Error) => expect(error.message).not.toContain(short));
    expect(await getOAuthClient('third-client')).toBeUndefined();
    expect(await asAdministrator(short)).toBe(false);
  });
});
