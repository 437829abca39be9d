export { handler } from '../policies/get_policies_with_active_current_revision.js';
