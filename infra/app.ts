/**
 * The CDK app (cdk.json: `npx tsx infra/app.ts`). Context, each also readable from the
 * environment: releaseTag (RELEASE_TAG), releaseTimestamp (RELEASE_TIMESTAMP),
 * stackPrefix, alarmEmail (ALARM_EMAIL), cognitoDomainPrefix.
 */
import { App } from 'aws-cdk-lib';
import { defineService } from './service.js';

const app = new App();
const context = (key: string): string | undefined => {
  const value = app.node.tryGetContext(key);
  return value === undefined || value === null || value === '' ? undefined : String(value);
};

await defineService(app, {
  prefix: context('stackPrefix'),
  env: { account: process.env.CDK_DEFAULT_ACCOUNT, region: process.env.CDK_DEFAULT_REGION },
  alarmEmail: context('alarmEmail') ?? process.env.ALARM_EMAIL,
  cognitoDomainPrefix: context('cognitoDomainPrefix'),
});

app.synth();
