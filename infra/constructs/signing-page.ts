/**
 * The built-in signature vendor's signing page (infra/esign/handler.ts) at each signature's
 * iframe_url: `GET` and `POST /esign/sign` on the HTTP API, one small function that reads and
 * writes the vendor's books in the table and posts the signed webhook to the API.
 */
import * as apigw from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import { fileURLToPath } from 'node:url';
import { Construct } from 'constructs';
import { SIGNING_PAGE_PATH } from '../../shared/signatures/index.js';
import type { FunctionBundles } from '../bundles.js';
import { ServiceFunction, type DataResources } from './service-function.js';

export const SIGNING_PAGE_ENTRY = fileURLToPath(new URL('../esign/handler.ts', import.meta.url));
export const SIGNING_PAGE_ROUTE_PATHS = [SIGNING_PAGE_PATH] as const;

export interface SigningPageProps {
  httpApi: apigw.IHttpApi;
  data: DataResources;
  /** SIGNATURE_VENDOR_SECRET and PUBLIC_BASE_URL (shared/platform/config.ts signatureConfig). */
  environment: Record<string, string>;
  bundles?: FunctionBundles;
}

export class SigningPage extends Construct {
  readonly page: ServiceFunction;

  constructor(scope: Construct, id: string, props: SigningPageProps) {
    super(scope, id);
    this.page = new ServiceFunction(this, 'Handler', {
      entry: SIGNING_PAGE_ENTRY,
      description: `GET, POST ${SIGNING_PAGE_PATH}`,
      functionClass: 'site',
      data: props.data,
      // The bucket is read for the document the signer is shown.
      resources: { table: 'write', bucket: 'read' },
      environment: props.environment,
      bundles: props.bundles,
    });
    const integration = new HttpLambdaIntegration('SigningPageIntegration', this.page.function);
    for (const method of [apigw.HttpMethod.GET, apigw.HttpMethod.POST]) {
      new apigw.HttpRoute(this, `${method}SigningPageRoute`, { httpApi: props.httpApi, routeKey: apigw.HttpRouteKey.with(SIGNING_PAGE_PATH, method), integration });
    }
  }
}
