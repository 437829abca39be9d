/**
 * What a person does in a browser: a named insured reads the policy application shown on the
 * built-in vendor's page at each iframe_url and signs it, until the file is esigned, and the /docs page
 * lists every operation and makes the worked example's quote through "Try it out". The service runs with its queue consumers, as `npm start` does.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../support/browser.js';
import { startTestService, successData as ok, type TestService } from '../support/service.js';
import { pdfText } from '../support/documents.js';
import { P, SIGNERS, submittedPolicy } from '../support/signatures.js';

let service: TestService;
let browser: Browser;

beforeAll(async () => {
  [service, browser] = await Promise.all([startTestService({ consumers: true }), launchChromium()]);
});
afterAll(async () => {
  await browser?.close();
  await service?.stop();
});

/**
 * What a person sees scrolling /docs from top to bottom: each operation's method and path. Swagger UI
 * draws only the operations near the viewport once a description is long (about 136 operations and up),
 * so the page is read a screen at a time; `until` stops at the screen that shows that operation.
 */
async function scrollThroughDocs(page: Page, until?: string): Promise<Set<string>> {
  await page.waitForSelector('.opblock', { timeout: 20_000 });
  const shown = new Set<string>();
  for (let screen = 0; screen < 1_000; screen += 1) {
    const drawn = await page.$$eval('.opblock', (blocks) =>
      blocks.map((block) => `${block.querySelector('.opblock-summary-method')?.textContent?.trim()} ${block.querySelector('.opblock-summary-path')?.getAttribute('data-path')}`),
    );
    drawn.forEach((operation) => shown.add(operation));
    if (until && shown.has(until)) break;
    const moved = await page.evaluate(() => {
      const window = globalThis as unknown as { scrollY: number; innerHeight: number; scrollBy(x: number, y: number): void };
      const before = window.scrollY;
      window.scrollBy(0, window.innerHeight / 2);
      return window.scrollY !== before;
    });
    if (!moved && screen > 0) break;
    // The virtual list draws the rows of the new scroll position on its next frame.
    await page.waitForTimeout(100);
  }
  return shown;
}

/** Reads until `ready` says yes: the consumer applies events in the background. */
async function eventually<T>(read: () => Promise<T>, ready: (value: T) => boolean, attempts = 150): Promise<T> {
  let value = await read();
  for (let attempt = 0; attempt < attempts && !ready(value); attempt += 1) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    value = await read();
  }
  return value;
}

describe('in headless Chromium', () => {
  it('signs the policy application at each iframe_url page until the file is esigned', async () => {
    const { policyId } = await submittedPolicy(service);
    const requested = await service.call(`${P}/request_deliverable_signature`, { policy_id: policyId, sign_mode: 'embedded' });
    expect(requested.body).toMatchObject({ success: true });
    const links: string[] = requested.body.data;
    expect(links).toHaveLength(SIGNERS.length);

    // Tall enough to show the embedded document and the form below it without scrolling.
    const page = await browser.newPage({ viewport: { width: 1024, height: 1200 } });
    for (const [index, link] of links.entries()) {
      await page.goto(link);
      expect(await page.textContent('#signer-name')).toBe(SIGNERS[index].name);
      // The document is shown before the box that says it was read: embedded, and linked.
      const order = await page.evaluate(() => {
        const dom = (globalThis as any).document;
        return ['#document-view', '#document-link', '#agree'].map((selector) => Array.from(dom.querySelectorAll('*')).indexOf(dom.querySelector(selector)));
      });
      expect(order.every((position) => position >= 0)).toBe(true);
      expect(order[0]).toBeLessThan(order[2]);
      expect(order[1]).toBeLessThan(order[2]);
      const documentHref = new URL((await page.getAttribute('#document-link', 'href'))!, link).href;
      expect(await page.getAttribute('#document-view', 'src')).toBe(await page.getAttribute('#document-link', 'href'));
      const shown = await page.request.get(documentHref);
      expect(shown.status()).toBe(200);
      expect(shown.headers()['content-type']).toBe('application/pdf');
      expect(pdfText(await shown.body())).toContain('Policy Application');
      // Only the signing token opens it: the same link with another token shows nothing.
      const forged = new URL(documentHref);
      forged.searchParams.set('token', '0'.repeat(40));
      const refused = await page.request.get(forged.href);
      expect(refused.status()).toBe(404);
      expect(refused.headers()['content-type']).not.toBe('application/pdf');
      // The embedded document is loaded (and laid out) before the signer ticks the box below it.
      await page.waitForLoadState('load');
      await page.check('#agree');
      await page.fill('#typed_name', SIGNERS[index].name);
      await Promise.all([page.waitForNavigation(), page.click('#sign')]);
      expect(await page.textContent('#signed-confirmation')).toContain('is signed');
    }
    await page.close();

    const read = async () => ok(await service.call(`${P}/retrieve_signature_requests`, { policy_id: policyId })).signature_requests[0];
    const request = await eventually(read, (current) => current.is_complete);
    expect(request.signatures.map((signature: any) => signature.status_code)).toEqual(['signed', 'signed']);
    const pending = await eventually(
      async () => JSON.parse(ok(await service.call(`${P}/retrieve_files_pending_signature`, { policy_id: policyId }))),
      (files) => Object.keys(files).length === 0,
    );
    expect(pending).toEqual({});
    expect((await service.call('/api/v2/utils/mark_file_as_signed', { file_id: request.file_id })).body).toMatchObject({ success: true });
  });

  it('shows every operation of the OpenAPI description on the /docs page', async () => {
    const description = (await (await fetch(`${service.url}/api/openapi.json`)).json()) as { paths: Record<string, Record<string, unknown>> };
    const operations = Object.entries(description.paths).flatMap(([path, methods]) => Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`));
    expect(operations.length).toBeGreaterThan(40);

    const page = await browser.newPage();
    await page.goto(`${service.url}/docs`);
    const shown = await scrollThroughDocs(page);
    await page.close();
    expect([...shown].sort()).toEqual([...operations].sort());
    // Scrolling past some 200 operations in a browser takes long on a busy 2-core machine.
  }, 120_000);

  it('filters /docs by what is typed (a path or a tag), and a link to one operation opens it (issue 44)', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
    await page.goto(`${service.url}/docs`);
    await page.waitForSelector('.opblock', { timeout: 20_000 });
    await page.fill('input.operation-filter-input', 'cancel_policy');
    await page.waitForFunction(() => (globalThis as unknown as { document: { querySelectorAll(selector: string): { length: number } } }).document.querySelectorAll('.opblock').length === 1);
    expect(await page.$$eval('.opblock .opblock-summary-path', (paths) => paths.map((path) => path.getAttribute('data-path')))).toEqual(['/api/v2/policies/cancel_policy']);
    await page.close();

    // The operation's own address: it opens at once, its request body shown, without scrolling or clicking.
    const linked = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
    await linked.goto(`${service.url}/docs#/v2%20billing/v2-billing-list_refunds`);
    const opened = linked.locator('.opblock.is-open', { has: linked.locator('[data-path="/api/v2/billing/list_refunds"]') });
    await opened.waitFor({ timeout: 30_000 });
    expect(await opened.locator('.opblock-body').count()).toBe(1);
    await linked.close();
  }, 120_000);

  it('quotes the worked example from /docs: Authorize with the key, Try it out, Execute, and the premium is 826.62', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
    await page.goto(`${service.url}/docs`);
    await page.waitForSelector('.opblock', { timeout: 20_000 });

    // The key goes through Authorize, as a person pastes it: the first scheme is the Authorization header.
    await page.click('button.authorize');
    const headerScheme = page.locator('.auth-container', { hasText: 'apiKeyHeader' });
    await headerScheme.locator('input').fill(service.administratorApiKey);
    await headerScheme.locator('button.authorize').click();
    await page.click('button.btn-done');

    await scrollThroughDocs(page, 'POST /api/v2/policies/create_quote_extended');
    const operation = page.locator('.opblock', { has: page.locator('[data-path="/api/v2/policies/create_quote_extended"]') });
    await operation.locator('.opblock-summary').first().click();
    await operation.locator('button.try-out__btn').click();
    // The body offered is the one sent: nothing in it is a placeholder, and no api_key overrides the key given above.
    const offered = JSON.parse(await operation.locator('textarea.body-param__text').inputValue());
    expect(offered).not.toHaveProperty('api_key');
    expect(offered.quote_info.items.map((item: { name: string }) => item.name)).toEqual(['Dwelling', 'Personal Liability', 'Medical Payments']);
    await operation.locator('button.execute').click();

    const answer = operation.locator('.live-responses-table .response-col_description .microlight').first();
    await answer.waitFor({ timeout: 30_000 });
    const body = JSON.parse((await answer.textContent()) ?? '');
    await page.close();
    expect(body).toMatchObject({ success: true, data: { total: { annual_premium: 826.62, annual_total: 851.62 } } });
    // Swagger UI lays out every operation before the first click; on a busy machine that alone takes most of the default 30 s.
  }, 120_000);
});
