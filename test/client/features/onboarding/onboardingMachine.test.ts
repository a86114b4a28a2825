import { createActor } from 'xstate';
import {
  onboardingMachine,
  type OnboardingMarkers,
} from '../../../../src/client/features/onboarding/onboardingMachine';

const fresh: OnboardingMarkers = { skippedThisSession: false, completed: false };
const skipped: OnboardingMarkers = { skippedThisSession: true, completed: false };

function harness() {
  const effects: string[] = [];
  const machine = onboardingMachine.provide({
    actions: {
      clearMarkers: () => effects.push('clearMarkers'),
      markSkipped: () => effects.push('markSkipped'),
      markCompleted: () => effects.push('markCompleted'),
      goToServers: () => effects.push('goToServers'),
    },
  });
  const actor = createActor(machine).start();
  return { actor, effects, value: () => actor.getSnapshot().value };
}

describe('onboarding machine', () => {
  it('opens when loading found no servers and walks Welcome → Connect → /servers', () => {
    const h = harness();
    h.actor.send({ type: 'SERVERS_LOADED', count: 0, markers: fresh });
    expect(h.value()).toEqual({ open: 'welcome' });
    h.actor.send({ type: 'GET_STARTED' });
    expect(h.value()).toEqual({ open: 'connect' });
    h.actor.send({ type: 'CONNECT' });
    expect(h.value()).toBe('closed');
    expect(h.effects).toEqual(['markCompleted', 'goToServers']);
  });

  it('"I\'ll do this later", skip and close set the session skip marker', () => {
    for (const path of [['GET_STARTED', 'LATER'], ['SKIP'], ['CLOSE']] as const) {
      const h = harness();
      h.actor.send({ type: 'SERVERS_LOADED', count: 0, markers: fresh });
      for (const type of path) h.actor.send({ type });
      expect(h.value()).toBe('closed');
      expect(h.effects).toEqual(['markSkipped']);
    }
  });

  it('stays closed with a session skip, or after completion, when no servers are found', () => {
    const a = harness();
    a.actor.send({ type: 'SERVERS_LOADED', count: 0, markers: skipped });
    expect(a.value()).toBe('closed');
    const b = harness();
    b.actor.send({ type: 'SERVERS_LOADED', count: 0, markers: { skippedThisSession: false, completed: true } });
    expect(b.value()).toBe('closed');
  });

  it('welcome=true opens even after a skip, and clears the markers', () => {
    const h = harness();
    h.actor.send({ type: 'LOCATION', welcome: true, noservers: false, markers: skipped });
    expect(h.value()).toEqual({ open: 'welcome' });
    expect(h.effects).toEqual(['clearMarkers']);
  });

  it('noservers=true opens only without the session skip', () => {
    const a = harness();
    a.actor.send({ type: 'LOCATION', welcome: false, noservers: true, markers: fresh });
    expect(a.value()).toEqual({ open: 'welcome' });
    const b = harness();
    b.actor.send({ type: 'LOCATION', welcome: false, noservers: true, markers: skipped });
    expect(b.value()).toBe('closed');
  });

  it('closes when servers exist, and never opens while they do', () => {
    const h = harness();
    h.actor.send({ type: 'SERVERS_LOADED', count: 0, markers: fresh });
    h.actor.send({ type: 'SERVERS_LOADED', count: 2, markers: fresh });
    expect(h.value()).toBe('closed');
    h.actor.send({ type: 'SERVERS_LOADED', count: 2, markers: fresh });
    expect(h.value()).toBe('closed');
    expect(h.effects).toEqual([]);
  });
});
