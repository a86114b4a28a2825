// The billing feature's surface for other features (the dashboard, Settings → Billing).
export { AgentCallUsage } from './AgentCallUsage';
export { useGetWorkspaceLimitsQuery } from './billingApi';
