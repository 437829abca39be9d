/**
 * Runs the worked example against a running service and prints what it did:
 * `npx tsx clients/typescript/examples/run-worked-example.ts` at the repository's root, with
 * `npm start` running (its key read from .data/admin-api-key; API_URL or PORT, and KEY, for another service).
 */
import { readFileSync } from 'node:fs';
import { workedExample } from './worked-example.js';

const baseUrl = process.env.API_URL ?? `http://localhost:${process.env.PORT ?? 3000}`;
const apiKey = process.env.KEY ?? readFileSync('.data/admin-api-key', 'utf8').trim();
const result = await workedExample(baseUrl, apiKey);
console.log(`policy ${result.policyNumber}: annual total ${result.annualTotal.toFixed(2)}, paid; balance ${result.balance.toFixed(2)}`);
