/**
 * The answers of the signature operations whose contract gives `message` as one string
 * (spec 4.5) rather than the v2 envelope's list: success and refusal alike.
 */
import { Reply } from '../platform/envelope.js';
import { BusinessRuleError } from '../platform/errors.js';
import { withoutLongEcho } from '../platform/validation.js';

export async function singleMessageAnswer(
  work: () => Promise<{ message: string; data: unknown; extra?: Record<string, unknown> }>,
  failureData: unknown,
): Promise<Reply> {
  try {
    const { message, data, extra } = await work();
    return new Reply({ success: true, message, data, ...extra });
  } catch (error) {
    if (!(error instanceof BusinessRuleError)) throw error;
    return new Reply({ success: false, message: error.messages.map(withoutLongEcho).join('; '), data: failureData });
  }
}
