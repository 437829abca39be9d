/**
 * Whether a subscriber may be reached over plain http on this machine (localhost): allowed
 * where the service runs locally, refused in Lambda, where every subscriber URL is https.
 * EVENT_DELIVERY_ALLOW_HTTP_LOCALHOST=true|false overrides it.
 */
export function allowsHttpLocalhost(): boolean {
  const setting = process.env.EVENT_DELIVERY_ALLOW_HTTP_LOCALHOST;
  if (setting === 'true') return true;
  if (setting === 'false') return false;
  return !process.env.AWS_LAMBDA_FUNCTION_NAME;
}
