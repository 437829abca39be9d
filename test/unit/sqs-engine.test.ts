/** The local SQS server's queue engine on a fake clock: visibility, delay, receive counts, redrive, retention, receipt handles. */
import { describe, expect, it } from 'vitest';
import { QueueEngine } from '../../infra/local/sqs/engine.js';
import { queueArn, SqsError } from '../../infra/local/sqs/protocol.js';

function engineAt(start = 1_000_000) {
  let now = start;
  let ids = 0;
  const engine = new QueueEngine({ clock: () => now, newId: () => `m${(ids += 1)}` });
  return { engine, advance: (seconds: number) => (now += seconds * 1000), now: () => now };
}

describe('the queue engine', () => {
  it('hides a received message for its visibility timeout and gives it back after, with its receive count', () => {
    const { engine, advance } = engineAt();
    engine.createQueue('jobs', { VisibilityTimeout: '30' });
    engine.send('jobs', { body: 'a' });
    const [first] = engine.take('jobs', { max: 10 });
    expect(first).toMatchObject({ body: 'a', receiveCount: 1 });
    expect(engine.take('jobs', { max: 10 })).toEqual([]);
    expect(engine.describe('jobs')).toMatchObject({ ApproximateNumberOfMessages: '0', ApproximateNumberOfMessagesNotVisible: '1' });
    expect(engine.nextVisibleAt('jobs')).toBe(1_000_000 + 30_000);
    advance(29);
    expect(engine.take('jobs', { max: 10 })).toEqual([]);
    advance(1);
    const [again] = engine.take('jobs', { max: 10 });
    expect(again).toMatchObject({ messageId: first.messageId, receiveCount: 2 });
  });

  it('deletes only with the latest receipt handle; an outdated one is a no-op for delete and an error for a visibility change', () => {
    const { engine, advance } = engineAt();
    engine.createQueue('jobs', { VisibilityTimeout: '1' });
    engine.send('jobs', { body: 'a' });
    const oldHandle = engine.take('jobs', { max: 1 })[0].receiptHandle!;
    advance(1);
    const newHandle = engine.take('jobs', { max: 1 })[0].receiptHandle!;
    engine.deleteByHandle('jobs', oldHandle);
    expect(engine.describe('jobs').ApproximateNumberOfMessagesNotVisible).toBe('1');
    expect(() => engine.changeVisibility('jobs', oldHandle, 10)).toThrow(SqsError);
    expect(() => engine.deleteByHandle('jobs', 'not a handle!')).toThrow(expect.objectContaining({ code: 'ReceiptHandleIsInvalid' }));
    engine.deleteByHandle('jobs', newHandle);
    expect(engine.describe('jobs')).toMatchObject({ ApproximateNumberOfMessages: '0', ApproximateNumberOfMessagesNotVisible: '0' });
  });

  it('extends a lease with a visibility change, and a zero timeout makes the message visible at once', () => {
    const { engine, advance } = engineAt();
    engine.createQueue('jobs', { VisibilityTimeout: '10' });
    engine.send('jobs', { body: 'a' });
    const handle = engine.take('jobs', { max: 1 })[0].receiptHandle!;
    engine.changeVisibility('jobs', handle, 60);
    advance(30);
    expect(engine.take('jobs', { max: 1 })).toEqual([]);
    engine.changeVisibility('jobs', handle, 0);
    expect(engine.take('jobs', { max: 1 })).toHaveLength(1);
  });

  it('delays a message by the queue delay or its own', () => {
    const { engine, advance } = engineAt();
    engine.createQueue('late', { DelaySeconds: '5' });
    engine.send('late', { body: 'queue delay' });
    engine.send('late', { body: 'no delay', delaySeconds: 0 });
    expect(engine.take('late', { max: 10 }).map((message) => message.body)).toEqual(['no delay']);
    expect(engine.describe('late').ApproximateNumberOfMessagesDelayed).toBe('1');
    advance(5);
    expect(engine.take('late', { max: 10 }).map((message) => message.body)).toEqual(['queue delay']);
  });

  it('moves a message to the dead-letter queue when a receive would take it past maxReceiveCount, naming its source', () => {
    const { engine } = engineAt();
    engine.createQueue('dead', {});
    engine.createQueue('work', { RedrivePolicy: JSON.stringify({ deadLetterTargetArn: queueArn('dead'), maxReceiveCount: 2 }) });
    engine.send('work', { body: 'poison' });
    expect(engine.take('work', { max: 1, visibilityTimeoutSeconds: 0 })[0].receiveCount).toBe(1);
    expect(engine.take('work', { max: 1, visibilityTimeoutSeconds: 0 })[0].receiveCount).toBe(2);
    expect(engine.take('work', { max: 1, visibilityTimeoutSeconds: 0 })).toEqual([]);
    const [dead] = engine.take('dead', { max: 1 });
    expect(dead).toMatchObject({ body: 'poison', receiveCount: 1, deadLetterQueueSourceArn: queueArn('work') });
  });

  it('drops messages past the retention period', () => {
    const { engine, advance } = engineAt();
    engine.createQueue('short', { MessageRetentionPeriod: '60' });
    engine.send('short', { body: 'a' });
    advance(60);
    expect(engine.take('short', { max: 1 })).toEqual([]);
    expect(engine.describe('short').ApproximateNumberOfMessages).toBe('0');
  });

  it('refuses what SQS refuses: an unknown queue, a body too large or with forbidden characters, a queue created again with other attributes', () => {
    const { engine } = engineAt();
    expect(() => engine.send('missing', { body: 'a' })).toThrow(expect.objectContaining({ code: 'QueueDoesNotExist' }));
    engine.createQueue('small', { MaximumMessageSize: '1024' });
    expect(() => engine.send('small', { body: 'x'.repeat(1025) })).toThrow(expect.objectContaining({ code: 'InvalidParameterValue' }));
    expect(() => engine.send('small', { body: 'bad \u0000' })).toThrow(expect.objectContaining({ code: 'InvalidMessageContents' }));
    engine.createQueue('small', { MaximumMessageSize: '1024' });
    expect(() => engine.createQueue('small', { MaximumMessageSize: '2048' })).toThrow(expect.objectContaining({ code: 'QueueNameExists' }));
  });

  it('tells a waiting long poll once when its queue changes, and keeps state across a snapshot and restore', () => {
    const { engine } = engineAt();
    engine.createQueue('jobs', {});
    let woken = 0;
    engine.onceChanged('jobs', () => (woken += 1));
    engine.send('jobs', { body: 'a' });
    engine.send('jobs', { body: 'b' });
    expect(woken).toBe(1);
    engine.take('jobs', { max: 1 });
    const copy = new QueueEngine({ clock: () => 1_000_000 });
    copy.restore(engine.snapshot());
    expect(copy.describe('jobs')).toMatchObject({ ApproximateNumberOfMessages: '1', ApproximateNumberOfMessagesNotVisible: '1' });
  });
});
