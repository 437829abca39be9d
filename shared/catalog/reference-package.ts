/**
 * The shipped reference product, a product package (shared/catalog/reference, docs/products.md),
 * as one document. Imported by the bootstrap and the deploy-time seed only: functions read the
 * product from storage.
 */
import line from './reference/line.json' with { type: 'json' };
import subLines from './reference/sub-lines.json' with { type: 'json' };
import items from './reference/items.json' with { type: 'json' };
import questions from './reference/questions.json' with { type: 'json' };
import forms from './reference/forms.json' with { type: 'json' };
import billing from './reference/billing-schedules.json' with { type: 'json' };
import cancellation from './reference/cancel-reasons.json' with { type: 'json' };
import renewal from './reference/renewal-rules.json' with { type: 'json' };
import claims from './reference/claims-rules.json' with { type: 'json' };
import countrywide from './reference/states/countrywide.json' with { type: 'json' };
import florida from './reference/states/FL.json' with { type: 'json' };
import texas from './reference/states/TX.json' with { type: 'json' };
import newYorkWorksheet from './reference/worksheets/new-york-worked-example.json' with { type: 'json' };
import floridaWorksheet from './reference/worksheets/florida-worked-example.json' with { type: 'json' };
import type { PackageDocument } from './package-schema.js';

export function referencePackageDocument(): PackageDocument {
  return {
    'line.json': line,
    'sub-lines.json': subLines,
    'items.json': items,
    'questions.json': questions,
    'forms.json': forms,
    'billing-schedules.json': billing,
    'cancel-reasons.json': cancellation,
    'renewal-rules.json': renewal,
    'claims-rules.json': claims,
    'states/countrywide.json': countrywide,
    'states/FL.json': florida,
    'states/TX.json': texas,
    'worksheets/florida-worked-example.json': floridaWorksheet,
    'worksheets/new-york-worked-example.json': newYorkWorksheet,
  };
}
