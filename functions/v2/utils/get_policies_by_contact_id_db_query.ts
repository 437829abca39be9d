export { handler } from '../policies/get_policies_by_contact_id_db_query.js';
