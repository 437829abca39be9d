// One Lambda function of the rehearsal, in a worker thread of its own: its process.env is
// exactly the environment the template gives it (plus what the Lambda runtime sets), and it
// imports its bundled asset, nothing else. Plain JavaScript: the bundle is what runs, not
// the TypeScript sources, so this file needs no loader.
import { parentPort, workerData } from 'node:worker_threads';
import { pathToFileURL } from 'node:url';

const { entryFile, exportName, functionName, timeoutSeconds, memorySize } = workerData;

function describe(error) {
  return { name: error?.name ?? 'Error', message: error?.message ?? String(error), stack: error?.stack, code: error?.code };
}

let handler;
try {
  const module = await import(pathToFileURL(entryFile).href);
  handler = module[exportName];
  if (typeof handler !== 'function') throw new Error(`the bundle exports no function ${exportName}`);
  parentPort.postMessage({ kind: 'loaded', authentication: handler.operation?.authentication ?? null });
} catch (error) {
  parentPort.postMessage({ kind: 'load-failed', error: describe(error) });
}

parentPort.on('message', async ({ id, event, requestId, traceHeader }) => {
  // As the Lambda runtime does before each invocation: the X-Ray SDK reads its trace from here.
  process.env._X_AMZN_TRACE_ID = traceHeader;
  const deadline = Date.now() + timeoutSeconds * 1000;
  const context = {
    callbackWaitsForEmptyEventLoop: false,
    functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:${process.env.AWS_REGION}:000000000000:function:${functionName}`,
    memoryLimitInMB: String(memorySize),
    awsRequestId: requestId,
    logGroupName: `/aws/lambda/${functionName}`,
    logStreamName: 'rehearsal',
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
  try {
    const result = await handler(event, context);
    parentPort.postMessage({ kind: 'result', id, result: result === undefined ? null : JSON.parse(JSON.stringify(result)) });
  } catch (error) {
    parentPort.postMessage({ kind: 'result', id, error: describe(error) });
  }
});
