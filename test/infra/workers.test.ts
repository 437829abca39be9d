import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadQueueConsumers, loadScheduledJobs } from '../../infra/workers.js';
import { allActions, FIXTURES, functionDescribed, resourcesOf, statementsOf, synthesize, writeTree } from './helpers.js';

const FIXTURE_EVENTS = join(FIXTURES, 'events');
const FIXTURE_FUNCTIONS = join(FIXTURES, 'functions');

describe('queue consumers and scheduled jobs from the events tree', () => {
  it('deploys no workers stack when there is no consumer and no job', async () => {
    const synth = await synthesize({ functionsDir: FIXTURE_FUNCTIONS });
    expect(synth.service.workers).toBeUndefined();
    expect([...synth.stacks.keys()].some((path) => path.includes('Workers'))).toBe(false);
  }, 120_000);

  it('wires each consumer to its queue in batches of 10 with partial batch failures, and each job to its schedule', async () => {
    const synth = await synthesize({ functionsDir: FIXTURE_FUNCTIONS, eventsDir: FIXTURE_EVENTS });
    const template = synth.template(synth.service.workers!);

    const mappings = Object.values(resourcesOf(template, 'AWS::Lambda::EventSourceMapping'));
    expect(mappings).toHaveLength(2);
    for (const [description, queue] of [
      ['Consumes signature-events (record_event)', 'SignatureEventsQueue'],
      ['Consumes print-batches (render_batch)', 'PrintBatchesQueue'],
    ]) {
      const [functionId, fn] = functionDescribed(template, description);
      expect(fn.Properties!.Timeout).toBe(60);
      const mapping = mappings.find((candidate) => candidate.Properties!.FunctionName.Ref === functionId)!;
      expect(mapping.Properties).toMatchObject({ BatchSize: 10, FunctionResponseTypes: ['ReportBatchItemFailures'] });
      expect(JSON.stringify(mapping.Properties!.EventSourceArn)).toContain(queue);
      const receive = statementsOf(template, functionId).filter((statement) => allActions([statement]).has('sqs:ReceiveMessage'));
      expect(receive).toHaveLength(1);
      expect(JSON.stringify(receive[0].Resource)).toContain(queue);
    }

    const rules = Object.values(resourcesOf(template, 'AWS::Events::Rule'));
    expect(rules).toHaveLength(1);
    expect(rules[0].Properties!.ScheduleExpression).toBe('cron(0 5 * * ? *)');
    const [jobId, job] = functionDescribed(template, 'Scheduled job nightly_billing: cron(0 5 * * ? *)');
    expect(rules[0].Properties!.Targets[0].Arn).toEqual({ 'Fn::GetAtt': [jobId, 'Arn'] });
    expect(job.Properties!.Timeout).toBe(900);
    template.hasResourceProperties('AWS::Lambda::Permission', { Principal: 'events.amazonaws.com', FunctionName: { 'Fn::GetAtt': [jobId, 'Arn'] } });
    template.hasResourceProperties('AWS::CloudWatch::Alarm', { MetricName: 'Errors', Dimensions: [{ Name: 'FunctionName', Value: { Ref: jobId } }] });
  }, 120_000);

  it('grants a worker what it declares, or table write by default', async () => {
    const synth = await synthesize({ functionsDir: FIXTURE_FUNCTIONS, eventsDir: FIXTURE_EVENTS });
    const template = synth.template(synth.service.workers!);
    const [renderId, render] = functionDescribed(template, 'Consumes print-batches (render_batch)');
    const renderActions = allActions(statementsOf(template, renderId));
    expect(renderActions).toContain('s3:PutObject');
    expect(renderActions).not.toContain('dynamodb:PutItem');
    expect(render.Properties!.Environment.Variables).toHaveProperty('BUCKET_NAME');

    const [recordId] = functionDescribed(template, 'Consumes signature-events (record_event)');
    const recordActions = allActions(statementsOf(template, recordId));
    expect(recordActions).toContain('dynamodb:PutItem');
    expect([...recordActions].some((action) => action.startsWith('s3:'))).toBe(false);
  }, 120_000);

  it('gives the sealing key to the events consumer and the retries consumer (they sign with sealed secrets), and to no other worker', async () => {
    const synth = await synthesize({ functionsDir: FIXTURE_FUNCTIONS, eventsDir: fileURLToPath(new URL('../../events', import.meta.url)) });
    const template = synth.template(synth.service.workers!);
    const keyed = Object.values(resourcesOf(template, 'AWS::Lambda::Function'))
      .filter((fn) => fn.Properties?.Environment?.Variables?.URL_OVERRIDE_ENCRYPTION_KEY !== undefined)
      .map((fn) => fn.Properties!.Description as string)
      .sort();
    expect(keyed).toEqual(['Consumes event-retries (retry_deliveries)', 'Consumes events (deliver_events)']);
    expect(JSON.stringify(functionDescribed(template, 'Consumes events (deliver_events)')[1].Properties!.Environment.Variables.URL_OVERRIDE_ENCRYPTION_KEY)).toContain('{{resolve:secretsmanager:');
  }, 120_000);

  it("delivers an event's first attempt from the stream's queue and each retry from a delayed message, with no schedule in between", async () => {
    const synth = await synthesize({ functionsDir: FIXTURE_FUNCTIONS, eventsDir: fileURLToPath(new URL('../../events', import.meta.url)) });
    const template = synth.template(synth.service.workers!);
    const mappings = Object.values(resourcesOf(template, 'AWS::Lambda::EventSourceMapping'));
    for (const [description, queue] of [
      ['Consumes events (deliver_events)', 'EventsQueue'],
      ['Consumes event-retries (retry_deliveries)', 'EventRetriesQueue'],
    ]) {
      const [functionId] = functionDescribed(template, description);
      const mapping = mappings.find((candidate) => candidate.Properties!.FunctionName.Ref === functionId)!;
      expect(JSON.stringify(mapping.Properties!.EventSourceArn)).toContain(queue);
      expect(mapping.Properties).toMatchObject({ FunctionResponseTypes: ['ReportBatchItemFailures'] });
      // Both put a failed delivery's retry on the retries queue, delayed until it is due.
      const sends = statementsOf(template, functionId).filter((statement) => allActions([statement]).has('sqs:SendMessage'));
      expect(JSON.stringify(sends.map((statement) => statement.Resource))).toContain('EventRetriesQueue');
    }
    // No job on a timer touches deliveries: no rule runs every minute, none targets an events function.
    const rules = Object.values(resourcesOf(template, 'AWS::Events::Rule'));
    expect(rules.map((rule) => rule.Properties!.ScheduleExpression)).not.toContain('rate(1 minute)');
    const deliveryFunctions = ['Consumes events (deliver_events)', 'Consumes event-retries (retry_deliveries)'].map((description) => functionDescribed(template, description)[0]);
    for (const rule of rules) for (const target of rule.Properties!.Targets) expect(deliveryFunctions).not.toContain(target.Arn?.['Fn::GetAtt']?.[0]);
  }, 120_000);

  it('refuses a consumer folder that names no queue, and a job without a schedule', async () => {
    const strayQueue = writeTree({ 'queues/no-such-queue/consumer.ts': 'export const handler = async () => ({});\n' });
    await expect(loadQueueConsumers(strayQueue)).rejects.toThrow(/no-such-queue.*names no queue/);
    const noSchedule = writeTree({ 'schedules/job.ts': 'export const handler = async () => {};\n' });
    await expect(loadScheduledJobs(noSchedule)).rejects.toThrow(/schedules\/job\.ts must export `schedule`/);
  });
});
