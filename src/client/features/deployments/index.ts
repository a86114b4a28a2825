// The deployments feature's surface for the rest of the app: the Hosted section /servers renders,
// and what the live stream calls with deployment messages.
export { HostedSection } from './components/HostedSection';
export { deploymentUpdated, deploymentLogged } from './liveDeployments';
