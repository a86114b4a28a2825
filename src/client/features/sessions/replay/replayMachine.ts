import { assign, setup } from 'xstate';

// The replay of a page of messages: `position` is how many are shown. Idle, the whole page is
// shown; Play (or Step) starts from the first message and reveals the next one after the real
// gap between the two messages divided by the speed (bounded so a long pause in the session does
// not stall the replay, and a burst stays visible). No React, no timers of its own: the delay
// is XState's, so tests drive it with a simulated clock.

export const REPLAY_SPEEDS = [0.5, 1, 2, 4, 8] as const;
export const MIN_STEP_MS = 80;
export const MAX_STEP_MS = 2_000;

interface Context {
  /** Recording times (ms) of the page's messages, in order. */
  times: number[];
  position: number;
  speed: number;
}

export type ReplayEvent =
  | { type: 'LOADED'; times: number[] }
  | { type: 'PLAY' }
  | { type: 'PAUSE' }
  | { type: 'STEP' }
  | { type: 'STEP_BACK' }
  | { type: 'SPEED'; speed: number }
  | { type: 'RESTART' };

/** How long the message at `position` (0-based, the next to reveal) waits after the previous one. */
export function stepDelay({ times, position, speed }: Context): number {
  if (position <= 0 || position >= times.length) return MIN_STEP_MS;
  const gap = (times[position] - times[position - 1]) / speed;
  return Math.min(MAX_STEP_MS, Math.max(MIN_STEP_MS, gap));
}

export const replayMachine = setup({
  types: { context: {} as Context, events: {} as ReplayEvent },
  actions: {
    load: assign(({ event }) => (event.type === 'LOADED' ? { times: event.times, position: event.times.length } : {})),
    startOver: assign({ position: ({ context }) => (context.position >= context.times.length ? 0 : context.position) }),
    revealNext: assign({ position: ({ context }) => Math.min(context.times.length, context.position + 1) }),
    hideLast: assign({ position: ({ context }) => Math.max(0, context.position - 1) }),
    rewind: assign({ position: 0 }),
    setSpeed: assign({ speed: ({ event, context }) => (event.type === 'SPEED' ? event.speed : context.speed) }),
  },
  guards: {
    atEnd: ({ context }) => context.position >= context.times.length,
  },
  delays: { nextMessage: ({ context }) => stepDelay(context) },
}).createMachine({
  id: 'replay',
  context: { times: [], position: 0, speed: 1 },
  initial: 'idle',
  on: {
    LOADED: { target: '.idle', actions: 'load' },
    SPEED: { actions: 'setSpeed' },
  },
  states: {
    /** Everything shown (or stopped somewhere by the user). */
    idle: {
      on: {
        PLAY: { target: 'playing', actions: 'startOver' },
        STEP: [
          { guard: 'atEnd', target: 'paused', actions: ['rewind', 'revealNext'] },
          { target: 'paused', actions: 'revealNext' },
        ],
        RESTART: { target: 'paused', actions: 'rewind' },
      },
    },
    playing: {
      always: { guard: 'atEnd', target: 'idle' },
      after: { nextMessage: { target: 'playing', reenter: true, actions: 'revealNext' } },
      on: {
        PAUSE: 'paused',
        STEP: { target: 'paused', actions: 'revealNext' },
        RESTART: { target: 'playing', reenter: true, actions: 'rewind' },
      },
    },
    paused: {
      on: {
        PLAY: { target: 'playing', actions: 'startOver' },
        STEP: [{ guard: 'atEnd', target: 'idle' }, { actions: 'revealNext' }],
        STEP_BACK: { actions: 'hideLast' },
        RESTART: { actions: 'rewind' },
      },
    },
  },
});
