export { handler } from './apply_lockbox_payment_transactions.js';
