export { handler } from '../policies/mark_file_as_signed.js';
