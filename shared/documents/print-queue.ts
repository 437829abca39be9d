/** The message of the print-batches queue: one print date to put into mailing batches. */
import { SendMessageCommand } from '@aws-sdk/client-sqs';
import * as z from 'zod/mini';
import { sqsClient } from '../platform/clients.js';
import { config } from '../platform/config.js';
import { parseDate } from '../platform/dates.js';

export interface PrintRunRequest {
  printDate: string;
}

export class InvalidPrintRunRequestError extends Error {
  constructor() {
    super('A print-batches message must be {"printDate": "YYYY-MM-DD"}');
    this.name = 'InvalidPrintRunRequestError';
  }
}

/** The same, as the consumer's schema. */
export const printRunMessage = z.object({
  printDate: z.string().check(z.refine((value) => parseDate(value) === value, 'must be a date YYYY-MM-DD')),
});

export function printRunRequest(body: string): PrintRunRequest {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    throw new InvalidPrintRunRequestError();
  }
  const printDate = (parsed as { printDate?: unknown } | null)?.printDate;
  if (typeof printDate !== 'string' || parseDate(printDate) !== printDate) throw new InvalidPrintRunRequestError();
  return { printDate };
}

export async function enqueuePrintRun(printDate: string): Promise<void> {
  if (parseDate(printDate) !== printDate) throw new InvalidPrintRunRequestError();
  await sqsClient().send(new SendMessageCommand({ QueueUrl: config.queueUrl('print-batches'), MessageBody: JSON.stringify({ printDate } satisfies PrintRunRequest) }));
}
