/**
 * remove_line_item (beyond the vendor): takes an optional coverage off an open revision, the
 * way an endorsement removes one. Mandatory and automatic items stay; the revision's totals
 * go back to unrated, as after any change of what was rated.
 */
import { BusinessRuleError, NotFoundError } from '../platform/errors.js';
import { revisionWithinReach, type Principal } from './access.js';
import { UNRATED_TOTALS } from './premiums.js';
import { changeRevision } from './store.js';

export async function removeLineItem(principal: Principal, input: { revision_id: string; line_item_id: string }) {
  const snapshot = await revisionWithinReach(principal, input.revision_id, { open: true });
  const item = snapshot.items.find((candidate) => candidate.id === input.line_item_id);
  if (!item) throw new NotFoundError(`Line item ${input.line_item_id} of revision ${input.revision_id}`);
  if (item.mandatory || item.type === 'adjustment') throw new BusinessRuleError(`line_item_id: ${item.name} is ${item.mandatory ? 'mandatory' : 'automatic'} and cannot be removed`);
  await changeRevision(snapshot.header, { remove: [item], header: { ...UNRATED_TOTALS } });
  return { removed_item_id: item.id };
}
