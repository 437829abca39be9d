/** API Gateway HTTP API (payload 2.0) events for invoking handlers in-process. */
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';

export function httpEvent(body: string | undefined, headers: Record<string, string> = {}, path = '/api/v2/test/operation'): APIGatewayProxyEventV2 {
  return {
    version: '2.0',
    routeKey: `POST ${path}`,
    rawPath: path,
    rawQueryString: '',
    headers,
    requestContext: {
      accountId: '000000000000',
      apiId: 'test',
      domainName: 'localhost',
      domainPrefix: 'localhost',
      http: { method: 'POST', path, protocol: 'HTTP/1.1', sourceIp: '127.0.0.1', userAgent: 'vitest' },
      requestId: `req-${Math.random().toString(36).slice(2)}`,
      routeKey: `POST ${path}`,
      stage: '$default',
      time: new Date().toISOString(),
      timeEpoch: Date.now(),
    },
    ...(body === undefined ? {} : { body }),
    isBase64Encoded: false,
  };
}

export const lambdaContext = { awsRequestId: 'test-request', functionName: 'test', getRemainingTimeInMillis: () => 29_000 } as unknown as Context;
