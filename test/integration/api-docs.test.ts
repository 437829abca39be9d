import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listOperationRoutes } from '../../infra/routes.js';
import { startTestService, type TestService } from '../support/service.js';

let service: TestService;

beforeAll(async () => {
  service = await startTestService();
});

afterAll(async () => {
  await service?.stop();
});

describe('the API description', () => {
  it('lists every operation file with the version label 2.0.0', async () => {
    const response = await fetch(`${service.url}/api/openapi.json`);
    expect(response.status).toBe(200);
    const document = (await response.json()) as any;
    expect(document.openapi).toBe('3.1.0');
    expect(document.info.version).toBe('2.0.0');
    expect(Object.keys(document.paths).sort()).toEqual(listOperationRoutes().map((route) => route.path).sort());
  });

  it('describes a request body from the operation schema, with the wrapped form for v1 wrappers', async () => {
    const document = (await (await fetch(`${service.url}/api/openapi.json`)).json()) as any;
    const releaseInfo = document.paths['/api/v2/utils/get_release_info'].post;
    expect(releaseInfo.requestBody.content['application/json'].schema.properties.api_key).toBeDefined();
    expect(releaseInfo.responses['200']).toBeDefined();
  });

  it('serves the interactive docs page and its assets from the registry package', async () => {
    const page = await fetch(`${service.url}/docs`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('/api/openapi.json');
    const bundle = await fetch(`${service.url}/docs/swagger-ui-bundle.js`);
    expect(bundle.status).toBe(200);
    expect(bundle.headers.get('content-type')).toContain('javascript');
    const traversal = await fetch(`${service.url}/docs/..%2Fpackage.json`);
    expect(traversal.status).toBe(404);
  });
});
