// The billing feature's surface for other features: the dashboard's agent-call usage and the
// Billing tab of the account settings.
export { AgentCallUsage } from './AgentCallUsage';
export { BillingTab } from './BillingTab';
export { useGetWorkspaceLimitsQuery } from './billingApi';
