// What other features may use of activity: the action a live activity message becomes (the live
// stream dispatches it; sessions refresh on it).
export { liveActivityReceived } from './liveActivity';
