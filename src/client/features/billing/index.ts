// The billing feature's surface for other features: the Billing tab of the account settings.
export { BillingTab } from './BillingTab';
