/** Items and sub lines of a revision: add_line_item, add_sub_line, copy_sub_line, update_property_sub_line_name. */
import { randomUUID } from 'node:crypto';
import { getProductCatalog } from '../catalog/index.js';
import { NotFoundError } from '../platform/errors.js';
import { partWithinReach, revisionWithinReach, type Principal } from './access.js';
import { planLineItem, planSubLine, planSubLineCopy } from './item-rules.js';
import type { Addition, RevisionRecord, SubLineRecord } from './model.js';
import { UNRATED_TOTALS } from './premiums.js';
import { changeRevision } from './store.js';
import { lineItemToWire, subLineToWire } from './wire.js';
import { clock } from '../platform/clock.js';

const newId = () => randomUUID();

/** Writes an addition; what the totals were rated on has changed, so they go back to zero. */
async function add(header: RevisionRecord, addition: Addition): Promise<void> {
  await changeRevision(header, { create: [...(addition.subLine ? [addition.subLine] : []), ...addition.items], header: { ...UNRATED_TOTALS } });
}

export async function addLineItem(
  principal: Principal,
  input: { revision_id: string; property_id?: string; sub_line_id?: string; item_id: string; link_id?: string; check_for_sub_line: boolean },
  now = clock.now(),
) {
  const snapshot = await revisionWithinReach(principal, input.revision_id, { open: true });
  const addition = planLineItem(await getProductCatalog(), snapshot, input, now, newId);
  await add(snapshot.header, addition);
  return { added_items: addition.items.map(lineItemToWire), added_subline: addition.subLine ? subLineToWire(addition.subLine) : null };
}

export async function addSubLine(
  principal: Principal,
  input: { revision_id: string; property_id?: string; sub_line_id: string; link_id?: string; optional_items?: unknown },
  now = clock.now(),
) {
  const snapshot = await revisionWithinReach(principal, input.revision_id, { open: true });
  const addition = planSubLine(await getProductCatalog(), snapshot, input, now, newId);
  await add(snapshot.header, addition);
  return { ...subLineToWire(addition.subLine), items: addition.items.map(lineItemToWire) };
}

export async function copySubLine(
  principal: Principal,
  input: { revision_id: string; property_id?: string; sub_line_id: string; sub_line_instance_id: string; link_id?: string; optional_items?: unknown },
  now = clock.now(),
) {
  const snapshot = await revisionWithinReach(principal, input.revision_id, { open: true });
  const addition = planSubLineCopy(await getProductCatalog(), snapshot, input, now, newId);
  await add(snapshot.header, addition);
  return { ...subLineToWire(addition.subLine), items: addition.items.map(lineItemToWire) };
}

export async function updatePropertySubLineName(principal: Principal, input: { property_sub_line_id: string; property_sub_line_name: string }) {
  const snapshot = await partWithinReach(principal, input.property_sub_line_id, 'subline', 'Sub line');
  const subLine = snapshot.subLines.find((candidate) => candidate.id === input.property_sub_line_id);
  if (!subLine) throw new NotFoundError(`Sub line ${input.property_sub_line_id}`);
  const renamed: SubLineRecord = { ...subLine, name: input.property_sub_line_name };
  await changeRevision(snapshot.header, { replace: [renamed] });
  return subLineToWire(renamed);
}
