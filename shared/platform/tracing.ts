/**
 * X-Ray tracing of the money paths (Powertools Tracer): the functions that post, refund or bill
 * money pass `tracing: moneyPathTracing` to defineOperation or defineConsumer. Each invocation
 * is a segment (a ColdStart annotation, the error if one was thrown) and each DynamoDB, S3 and
 * SQS call a subsegment under it, so a slow payment shows which table call it waited on.
 *
 * Only those functions import this module: the X-Ray SDK costs about 125 KiB and 20 ms of a cold
 * start (the bench measures traced functions against a bare handler carrying the same tracer).
 * Responses are never recorded: they carry names and addresses. Outside Lambda (tests, the local
 * server) the tracer is off by itself and every call here does nothing; the CDK app turns
 * active tracing on for exactly the functions whose handler says it is traced.
 */
import middy from '@middy/core';
import { Tracer } from '@aws-lambda-powertools/tracer';
import { captureLambdaHandler } from '@aws-lambda-powertools/tracer/middleware';
import type { Context } from 'aws-lambda';
import { onClientCreated } from './clients.js';

export interface Tracing {
  /** The handler, each invocation of it recorded as a segment. */
  traced<Event, Result>(handler: (event: Event, context: Context) => Promise<Result>): (event: Event, context: Context) => Promise<Result>;
}

const tracer = new Tracer({ serviceName: 'insurance-admin', captureHTTPsRequests: false });

// Every AWS call the function makes is a subsegment: the clients are created on first use, after this ran.
onClientCreated((client) => {
  tracer.captureAWSv3Client(client);
});

export const moneyPathTracing: Tracing = {
  traced: (handler) => middy(handler).use(captureLambdaHandler(tracer, { captureResponse: false })) as unknown as typeof handler,
};
