/**
 * Transport limits and OAuth scopes in the templates (issue 7 item 7, issue 8 item 6): the
 * stage's throttling, default and from context, and the scope `https://<apiDomainName>/api`.
 */
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_API_THROTTLE } from '../../infra/stacks/api-stack.js';
import { FIXTURES, resourcesOf, synthesize, type Synthesized } from './helpers.js';

const FIXTURE_SERVICE = { functionsDir: join(FIXTURES, 'functions'), seedReferenceCatalog: false, bootstrapAdministrator: false };

let plain: Synthesized;
let configured: Synthesized;
beforeAll(async () => {
  plain = await synthesize(FIXTURE_SERVICE);
  configured = await synthesize(FIXTURE_SERVICE, { apiRateLimit: '40', apiBurstLimit: '80', apiDomainName: 'api.example.com' });
}, 120_000);

const stageOf = (synth: Synthesized) => Object.values(resourcesOf(synth.template(synth.service.api), 'AWS::ApiGatewayV2::Stage'))[0].Properties!;

describe('throttling of the HTTP API stage', () => {
  it('limits every route to 100 requests a second with bursts of 200 when no context says otherwise', () => {
    expect(DEFAULT_API_THROTTLE).toEqual({ rateLimit: 100, burstLimit: 200 });
    expect(stageOf(plain).DefaultRouteSettings).toEqual({ ThrottlingRateLimit: 100, ThrottlingBurstLimit: 200 });
  });

  it('takes the limits from -c apiRateLimit=... -c apiBurstLimit=...', () => {
    expect(stageOf(configured).DefaultRouteSettings).toEqual({ ThrottlingRateLimit: 40, ThrottlingBurstLimit: 80 });
  });

  it('refuses a limit that is not a whole number of requests', async () => {
    await expect(synthesize(FIXTURE_SERVICE, { apiRateLimit: 'fast' })).rejects.toThrow(/apiRateLimit/);
  });
});

describe('the OAuth scopes Cognito grants', () => {
  const resourceServers = (synth: Synthesized) => Object.values(resourcesOf(synth.template(synth.service.auth), 'AWS::Cognito::UserPoolResourceServer')).map((server) => server.Properties!);
  const allowedScopes = (synth: Synthesized) => {
    const [client] = Object.values(resourcesOf(synth.template(synth.service.auth), 'AWS::Cognito::UserPoolClient'));
    return JSON.stringify(client.Properties!.AllowedOAuthScopes);
  };

  it('is insurance-admin/api without a custom domain', () => {
    expect(resourceServers(plain).map((server) => server.Identifier)).toEqual(['insurance-admin']);
    expect(allowedScopes(plain)).toContain('/api');
    plain.template(plain.service.auth).hasOutput('TokenScope', { Value: 'insurance-admin/api' });
    expect(Object.keys(plain.template(plain.service.auth).toJSON().Outputs)).not.toContain('DomainTokenScope');
  });

  it('adds https://<apiDomainName>/api, the scope clients spell from the API address, for the same app client', () => {
    const servers = resourceServers(configured);
    expect(servers.map((server) => server.Identifier).sort()).toEqual(['https://api.example.com', 'insurance-admin']);
    for (const server of servers) expect(server.Scopes).toEqual([expect.objectContaining({ ScopeName: 'api' })]);
    const [client] = Object.values(resourcesOf(configured.template(configured.service.auth), 'AWS::Cognito::UserPoolClient'));
    expect(client.Properties!.AllowedOAuthScopes).toHaveLength(2);
    configured.template(configured.service.auth).hasOutput('DomainTokenScope', { Value: 'https://api.example.com/api' });
  });

  it('refuses an apiDomainName that is not a bare host name', async () => {
    await expect(synthesize(FIXTURE_SERVICE, { apiDomainName: 'https://api.example.com/' })).rejects.toThrow(/host name/);
  });
});
