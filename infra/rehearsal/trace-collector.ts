/**
 * Stands in for the X-Ray daemon Lambda runs beside a traced function: a UDP socket on this
 * machine that functions are pointed at through AWS_XRAY_DAEMON_ADDRESS, as Lambda points them
 * at its own. The X-Ray SDK sends each closed (sub)segment as one datagram, a JSON header line
 * then the document; the collector keeps them by trace id, so the rehearsal can tell which
 * function's invocation sent what (each invocation gets its own trace id, as Lambda gives it).
 */
import { createSocket, type Socket } from 'node:dgram';
import { randomBytes } from 'node:crypto';

export interface TraceDocument {
  trace_id?: string;
  name?: string;
  namespace?: string;
  subsegments?: TraceDocument[];
  [field: string]: unknown;
}

export class TraceCollector {
  private socket?: Socket;
  private readonly documents = new Map<string, TraceDocument[]>();

  async start(): Promise<string> {
    const socket = createSocket('udp4');
    socket.on('message', (datagram) => {
      const text = datagram.toString('utf8');
      const newline = text.indexOf('\n');
      try {
        const document = JSON.parse(text.slice(newline + 1)) as TraceDocument;
        const traceId = String(document.trace_id ?? '');
        this.documents.set(traceId, [...(this.documents.get(traceId) ?? []), document]);
      } catch {
        // Not a segment document: the SDK sends nothing else, and a stray datagram is no finding.
      }
    });
    await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
    this.socket = socket;
    return `127.0.0.1:${socket.address().port}`;
  }

  /** Every (sub)segment name sent under `traceId`, nested ones included. */
  namesOf(traceId: string): string[] {
    const names: string[] = [];
    const walk = (document: TraceDocument) => {
      if (document.name) names.push(document.name);
      for (const child of document.subsegments ?? []) walk(child);
    };
    for (const document of this.documents.get(traceId) ?? []) walk(document);
    return names;
  }

  async stop(): Promise<void> {
    const socket = this.socket;
    this.socket = undefined;
    if (socket) await new Promise<void>((resolve) => socket.close(() => resolve()));
  }
}

/** A trace header as Lambda sets `_X_AMZN_TRACE_ID` for an invocation: `Root=1-<time>-<id>;Parent=<id>;Sampled=<0|1>`. */
export function lambdaTraceHeader(sampled: boolean): { header: string; traceId: string } {
  const traceId = `1-${Math.floor(Date.now() / 1000).toString(16).padStart(8, '0')}-${randomBytes(12).toString('hex')}`;
  return { header: `Root=${traceId};Parent=${randomBytes(8).toString('hex')};Sampled=${sampled ? 1 : 0}`, traceId };
}
