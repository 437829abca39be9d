import { describe, expect, it } from 'vitest';
import { escapeHtml, renderDeliverableHtml } from '../../shared/documents/html.js';
import { workedExampleDocument } from '../support/document-samples.js';

describe('the HTML deliverable', () => {
  it('shows the worked example: title, policy number, insured, coverages and totals', () => {
    const html = renderDeliverableHtml(workedExampleDocument());
    expect(html).toMatch(/^<!DOCTYPE html>/);
    expect(html).toContain('<h1>Declaration</h1>Policy Number 10-2026-1');
    expect(html).toContain('Jordan Avery');
    expect(html).toContain('<td class="money">250,000.00</td>');
    expect(html).toMatch(/Total Premium<\/td><td class="money">826\.62/);
    expect(html).toMatch(/Total Policy Cost<\/td><td class="money">851\.62/);
    expect(html).toContain('HO 00 03');
  });

  it('escapes every text from the model, so nothing in it can become markup', () => {
    const document = workedExampleDocument();
    document.namedInsureds[0].name = '<script>alert("x")</script> & Sons';
    document.forms[0].description = '<img src=x onerror=alert(1)>';
    const html = renderDeliverableHtml(document, 'Welcome <b>letter</b>');
    expect(html).not.toMatch(/<script|<img|<b>/);
    expect(html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; Sons');
    expect(html).toContain('<h1>Welcome &lt;b&gt;letter&lt;/b&gt;</h1>');
    expect(escapeHtml(`'"<>&`)).toBe('&#39;&quot;&lt;&gt;&amp;');
  });

  it('lists the cancellation and the return premium on a notice', () => {
    const html = renderDeliverableHtml(workedExampleDocument('Notice of Cancellation'));
    expect(html).toContain('Insured&#39;s Request');
    expect(html).toMatch(/Return premium<\/td><td class="money">409\.91/);
  });
});
