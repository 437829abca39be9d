/**
 * The API's own description in AWS: `GET /api/openapi.json`, `GET /docs` and
 * `GET /docs/{asset}`, served by one small site function (infra/site/handler.ts) whose
 * bundle carries the OpenAPI document generated at synth time and the Swagger UI files.
 * It touches no table, bucket or queue, and takes no credentials: the document describes
 * the interface, not data.
 */
import * as apigw from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import { Construct } from 'constructs';
import { pascal } from '../naming.js';
import { buildSiteBundle, SITE_ENTRY } from '../site/bundle.js';
import { DOCS_PATH, OPENAPI_PATH } from '../site/handler.js';
import { ServiceFunction, type DataResources } from './service-function.js';

export const SITE_ROUTE_PATHS = [OPENAPI_PATH, DOCS_PATH, `${DOCS_PATH}/{asset}`] as const;

export interface ApiDocsSiteProps {
  httpApi: apigw.IHttpApi;
  data: DataResources;
  /** Generated from the operations; needed only when the stack is bundled (synth, deploy). */
  openApiDocument?: Record<string, unknown>;
}

export class ApiDocsSite extends Construct {
  readonly site: ServiceFunction;

  constructor(scope: Construct, id: string, props: ApiDocsSiteProps) {
    super(scope, id);
    this.site = new ServiceFunction(this, 'Handler', {
      entry: SITE_ENTRY,
      description: `GET ${SITE_ROUTE_PATHS.join(', ')}`,
      functionClass: 'site',
      data: props.data,
      resources: {},
      assetDirectory: () => {
        if (!props.openApiDocument) throw new Error('ApiDocsSite needs the OpenAPI document to build its bundle');
        const bundle = buildSiteBundle(props.openApiDocument);
        process.once('exit', bundle.dispose);
        return bundle.directory;
      },
    });
    const integration = new HttpLambdaIntegration('SiteIntegration', this.site.function);
    for (const path of SITE_ROUTE_PATHS) {
      new apigw.HttpRoute(this, `Get${pascal(path)}Route`, {
        httpApi: props.httpApi,
        routeKey: apigw.HttpRouteKey.with(path, apigw.HttpMethod.GET),
        integration,
      });
    }
  }
}
