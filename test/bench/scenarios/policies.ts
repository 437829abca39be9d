/**
 * Policy structure: warm latency of create_policy and retrieve_revision_details, and the
 * DynamoDB capacity of one call of each policies operation in the flow an existing client
 * follows (create_policy, retrieve_policy, create_risk, update_property_location,
 * add_line_item, update_rating_information, retrieve_revision_details).
 */
import type { BenchRow, BenchScenario } from '../types.js';
import { meteredCaller } from '../scenario-helpers.js';

const P = '/api/v2/policies';
const WATER_BACKUP = '52f30227-604e-4559-9a60-544998a62893';

export const scenario: BenchScenario = {
  name: 'policies',
  async run(context) {
    const rows: BenchRow[] = [];
    const call = meteredCaller(context, rows);
    const metered = async (name: string, path: string, body: Record<string, unknown>) => (await call(name, path, body)).data;

    const created = await metered('create_policy', `${P}/create_policy`, { inception_date: '2026-03-01' });
    await metered('retrieve_policy by number', `${P}/retrieve_policy`, { policy_number: created.policy_number });
    const risk = await metered('create_risk', `${P}/create_risk`, { revision_id: created.revision_id });
    await metered('update_property_location', `${P}/update_property_location`, { location: { id: risk.id, address_line1: '1 Main Street', address_zip: '90210' } });
    const added = await metered('add_line_item', `${P}/add_line_item`, { revision_id: created.revision_id, item_id: WATER_BACKUP });
    await metered('update_rating_information', `${P}/update_rating_information`, { property_id: risk.id, items: [{ id: added.added_items[0].id, limit: 25000 }] });
    await metered('retrieve_revision_details', `${P}/retrieve_revision_details`, { revision_id: created.revision_id });

    const createLatency = await context.latency(`${P}/create_policy`, {}, { requests: 200, concurrency: 8 });
    rows.push({ name: 'create_policy warm latency', ...createLatency });
    const readLatency = await context.latency(`${P}/retrieve_revision_details`, { revision_id: created.revision_id }, { requests: 300, concurrency: 8 });
    rows.push({ name: 'retrieve_revision_details warm latency', ...readLatency });
    return rows;
  },
};
