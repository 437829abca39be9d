export { handler } from '../policies/get_signable_deliverable_names.js';
