import { createActor, SimulatedClock } from 'xstate';
import { MAX_STEP_MS, MIN_STEP_MS, replayMachine } from '../../../../src/client/features/sessions/replay/replayMachine';

function start(times: number[]) {
  const clock = new SimulatedClock();
  const actor = createActor(replayMachine, { clock }).start();
  actor.send({ type: 'LOADED', times });
  return { clock, actor, position: () => actor.getSnapshot().context.position, state: () => actor.getSnapshot().value };
}

describe('replay player', () => {
  it('shows everything when loaded, then plays from the first message in recorded time', () => {
    const { clock, actor, position, state } = start([0, 1000, 1500]);
    expect([state(), position()]).toEqual(['idle', 3]);
    actor.send({ type: 'PLAY' });
    expect([state(), position()]).toEqual(['playing', 0]);
    clock.increment(MIN_STEP_MS);
    expect(position()).toBe(1);
    clock.increment(999);
    expect(position()).toBe(1);
    clock.increment(1);
    expect(position()).toBe(2);
    clock.increment(500);
    expect([state(), position()]).toEqual(['idle', 3]);
  });

  it('pauses, steps forward and back, and speeds up', () => {
    const { clock, actor, position, state } = start([0, 4000, 8000, 8100]);
    actor.send({ type: 'STEP' });
    expect([state(), position()]).toEqual(['paused', 1]);
    actor.send({ type: 'STEP' });
    actor.send({ type: 'STEP_BACK' });
    expect(position()).toBe(1);
    actor.send({ type: 'SPEED', speed: 4 });
    actor.send({ type: 'PLAY' });
    clock.increment(999);
    expect(position()).toBe(1);
    clock.increment(1);
    expect(position()).toBe(2);
    actor.send({ type: 'PAUSE' });
    clock.increment(10_000);
    expect([state(), position()]).toEqual(['paused', 2]);
  });

  it('never waits longer than the cap for a long idle gap', () => {
    const { clock, actor, position } = start([0, 3_600_000]);
    actor.send({ type: 'STEP' });
    actor.send({ type: 'PLAY' });
    clock.increment(MAX_STEP_MS);
    expect(position()).toBe(2);
  });
});
