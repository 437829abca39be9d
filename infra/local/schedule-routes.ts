/**
 * `POST /local/schedules/<job>`: runs a scheduled job of events/schedules now, on the local
 * server only (in AWS, EventBridge starts them). An Administrator's credential is required,
 * as for any operation, so that nobody else on the network can start a print run. The body
 * is handed to the job as its event (`{"printDate": "2026-07-06"}` for nightly_print).
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { authenticator } from '../../shared/auth/index.js';
import { getNightlyRun } from '../../shared/platform/nightly-runs.js';
import { presentedCredentials } from '../../shared/platform/credentials.js';
import type { LocalRequest, LocalResponse, LocalRoute } from './server.js';

const json = (statusCode: number, body: unknown) => ({ statusCode, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

/** The JSON body of an Administrator's request (without its api_key), or the refusal to answer. */
async function administratorsBody(request: LocalRequest): Promise<Record<string, unknown> | LocalResponse> {
  let body: Record<string, unknown> = {};
  try {
    body = request.body.length ? (JSON.parse(request.body.toString('utf8')) as Record<string, unknown>) : {};
  } catch {
    return json(400, { success: false, messages: ['The request body is not valid JSON'] });
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return json(400, { success: false, messages: ['The request body is not a JSON object'] });
  const event = { headers: request.headers, cookies: [] } as unknown as APIGatewayProxyEventV2;
  const principal = await authenticator.authenticate(presentedCredentials(event, body));
  if (!principal) return json(401, { success: false, messages: ['A valid API key, bearer token or session is required'] });
  if (!principal.isAdministrator) return json(403, { success: false, messages: ['Only an Administrator runs scheduled jobs'] });
  const { api_key: _key, ...rest } = body;
  return rest;
}

const isRefusal = (value: Record<string, unknown> | LocalResponse): value is LocalResponse => typeof (value as LocalResponse).statusCode === 'number';

/**
 * `POST /local/nightly-runs` `{job, date, runId}`: how far a nightly run has come and what it
 * decided for each account (`npm run nightly` polls it until every batch is done).
 */
export function nightlyRunRoutes(): LocalRoute[] {
  return [
    {
      method: 'POST',
      path: '/local/nightly-runs',
      handle: async (request) => {
        const body = await administratorsBody(request);
        if (isRefusal(body)) return body;
        const { job, date, runId } = body;
        if (typeof job !== 'string' || typeof date !== 'string' || typeof runId !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(date) || job.length > 40 || runId.length > 64) {
          return json(200, { success: false, messages: ['job, date (YYYY-MM-DD) and runId are required'] });
        }
        const run = await getNightlyRun(job, date, runId);
        return run ? json(200, { success: true, messages: [], data: run }) : json(200, { success: false, messages: [`No nightly ${job} run ${runId} on ${date}`] });
      },
    },
  ];
}

export function scheduleRoutes(eventsDir: string): LocalRoute[] {
  const dir = join(eventsDir, 'schedules');
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.d.ts'))
    .map((file) => ({
      method: 'POST' as const,
      path: `/local/schedules/${file.slice(0, -'.ts'.length)}`,
      handle: async (request) => {
        const jobEvent = await administratorsBody(request);
        if (isRefusal(jobEvent)) return jobEvent;
        const job = (await import(pathToFileURL(join(dir, file)).href)) as { handler: (event: unknown) => Promise<unknown> };
        try {
          return json(200, { success: true, messages: [], data: (await job.handler(jobEvent)) ?? null });
        } catch (error) {
          // Local only, for the person running the job: what went wrong, in a line.
          return json(500, { success: false, messages: [`${file} failed: ${(error as Error).message}`] });
        }
      },
    }));
}
