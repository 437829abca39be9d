/**
 * Names of the resources a function talks to, read from its environment.
 * Locally the same variables point at the embedded servers (infra/local),
 * and the AWS SDK's own AWS_ENDPOINT_URL_* variables redirect the clients.
 */
import { queueUrlVariable, type QueueName } from './queues.js';

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`Environment variable ${name} is not set`);
  return value;
}

export const config = {
  tableName: () => required('TABLE_NAME'),
  bucketName: () => required('BUCKET_NAME'),
  queueUrl: (queue: QueueName) => required(queueUrlVariable(queue)),
  releaseTag: () => process.env.RELEASE_TAG ?? 'dev',
  releaseTimestamp: () => process.env.RELEASE_TIMESTAMP ?? new Date(0).toISOString(),
  /** Issuer and JWKS of bearer tokens: Cognito in AWS, the local issuer on a laptop. */
  cognitoUserPoolId: () => process.env.COGNITO_USER_POOL_ID,
  jwtIssuer: () => process.env.JWT_ISSUER,
  jwksUri: () => process.env.JWKS_URI,
};

/**
 * Electronic signatures: the built-in vendor's webhook secret (it signs, the callback verifies;
 * a comma-separated list while it is rotated, newest first) and the public address its
 * signing pages and webhooks use (the API's own URL).
 */
export const signatureConfig = {
  vendorSecrets: () => required('SIGNATURE_VENDOR_SECRET').split(',').map((secret) => secret.trim()).filter(Boolean),
  publicBaseUrl: () => required('PUBLIC_BASE_URL').replace(/\/+$/, ''),
};
