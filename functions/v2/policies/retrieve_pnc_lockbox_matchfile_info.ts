export { handler } from './retrieve_lockbox_matchfile_info.js';
