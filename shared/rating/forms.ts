/** The forms a revision carries: by its policy type, and by the items selected on it. */
import type { FormDefinition, ProductCatalog } from '../catalog/index.js';
import type { AttachedForm } from './model.js';

/**
 * Forms in catalog order whose `attachWhen` holds (every condition it names), plus the
 * forms an item on the revision lists by form code, each once.
 */
export function formsAttached(product: ProductCatalog, policyTypeId: string, selectedItemIds: Iterable<string>): AttachedForm[] {
  const selected = new Set(selectedItemIds);
  const codesOfItems = new Set(
    product.items.filter((item) => selected.has(item.id)).flatMap((item) => item.forms ?? []),
  );
  return product.forms
    .filter((form) => attaches(form, policyTypeId, selected) || codesOfItems.has(form.form_code))
    .map((form) => ({ form_code: form.form_code, edition_number: form.edition_number, description: form.description }));
}

function attaches(form: FormDefinition, policyTypeId: string, selected: ReadonlySet<string>): boolean {
  const { policyType, item } = form.attachWhen;
  if (policyType === undefined && item === undefined) return false;
  if (policyType !== undefined && policyType !== policyTypeId) return false;
  if (item !== undefined && !selected.has(item)) return false;
  return true;
}
