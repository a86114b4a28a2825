import { createActor, fromPromise, SimulatedClock } from 'xstate';
import {
  schemaDiscoveryMachine,
  schemasDiscoveredText,
  type SchemaDiscoveryInput,
} from '../../../../src/client/features/servers/schemaDiscoveryMachine';

async function flush() {
  for (let i = 0; i < 5; i++) await Promise.resolve();
}

function harness(answers: (number | Error)[]) {
  const clock = new SimulatedClock();
  const calls: SchemaDiscoveryInput[] = [];
  const announced: number[] = [];
  const machine = schemaDiscoveryMachine.provide({
    actors: {
      fetchSchemaCount: fromPromise<number, SchemaDiscoveryInput>(({ input }) => {
        calls.push(input);
        const answer = answers[Math.min(calls.length - 1, answers.length - 1)];
        return answer instanceof Error ? Promise.reject(answer) : Promise.resolve(answer);
      }),
    },
    actions: { announceDiscovered: (_, params) => announced.push(params.schemaCount) },
  });
  const actor = createActor(machine, { input: { workspaceId: 'w', serverId: 's' }, clock }).start();
  return { clock, actor, calls, announced };
}

describe('schema discovery polling machine', () => {
  it('polls every 3 s until schemas appear, then announces the count once', async () => {
    const h = harness([0, 0, 4]);
    h.clock.increment(2_999);
    await flush();
    expect(h.calls).toHaveLength(0);
    h.clock.increment(1);
    await flush();
    expect(h.calls).toEqual([{ workspaceId: 'w', serverId: 's' }]);
    h.clock.increment(3_000);
    await flush();
    h.clock.increment(3_000);
    await flush();
    expect(h.calls).toHaveLength(3);
    expect(h.announced).toEqual([4]);
    expect(h.actor.getSnapshot().value).toBe('discovered');
    h.clock.increment(30_000);
    await flush();
    expect(h.calls).toHaveLength(3);
  });

  it('gives up after 10 attempts without announcing', async () => {
    const h = harness([0]);
    for (let i = 0; i < 15; i++) {
      h.clock.increment(3_000);
      await flush();
    }
    expect(h.calls).toHaveLength(10);
    expect(h.announced).toEqual([]);
    expect(h.actor.getSnapshot().value).toBe('gaveUp');
  });

  it('counts a failed poll as an attempt and keeps polling', async () => {
    const h = harness([new Error('network'), 2]);
    h.clock.increment(3_000);
    await flush();
    expect(h.actor.getSnapshot().value).toBe('waiting');
    h.clock.increment(3_000);
    await flush();
    expect(h.announced).toEqual([2]);
  });

  it('stops on request', async () => {
    const h = harness([0]);
    h.actor.send({ type: 'STOP' });
    h.clock.increment(30_000);
    await flush();
    expect(h.calls).toHaveLength(0);
  });

  it('words the toast as SPEC §4 does', () => {
    expect(schemasDiscoveredText(3)).toEqual({
      title: 'Schemas discovered',
      description: 'Found 3 schema(s) for this server',
    });
  });
});
