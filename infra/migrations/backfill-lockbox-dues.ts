/**
 * `npx tsx infra/migrations/backfill-lockbox-dues.ts [--force]`: writes the lockbox-due record of
 * every account written before those records existed (docs/data-model.md, Billing), against the
 * table named by TABLE_NAME with the AWS credentials and region of the environment (or a local
 * table: AWS_ENDPOINT_URL_DYNAMODB). Safe to run while the service runs, and again.
 */
import { backfillLockboxDues } from '../../shared/billing/lockbox-due-backfill.js';

const outcome = await backfillLockboxDues({ force: process.argv.includes('--force') });
console.log(outcome.accounts === 0 && outcome.written === 0 ? 'lockbox-due records: already backfilled (--force walks the accounts again)' : `lockbox-due records: ${outcome.written} of ${outcome.accounts} accounts written`);
