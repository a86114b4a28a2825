// What the demo's agent does: per target server, the "tasks" it works through, each a list of tool
// calls with what the agent's model said before each (scriptedAgent.ts runs them).

export interface AgentTargets {
  /** Proxy URL of server-everything. */
  everything: string;
  /** Proxy URL of Demo Ops. */
  ops: string;
}

export type TargetName = keyof AgentTargets;

export interface PlannedCall {
  tool: string;
  arguments: Record<string, unknown>;
  reasoning: string;
  /** Ask for progress notifications. */
  progress?: boolean;
}

// Each plan is one "task" of an agent; the reasoning is what the agent's model said before the call.
export const PLANS: Record<TargetName, PlannedCall[][]> = {
  everything: [
    [
      {
        tool: 'echo',
        arguments: { message: 'ping from the agent' },
        reasoning: 'Check the tool server answers before starting the task.',
      },
      {
        tool: 'get-sum',
        arguments: { a: 19, b: 23 },
        reasoning: 'The user asked for the total of two line items; add them exactly instead of guessing.',
      },
      {
        tool: 'trigger-long-running-operation',
        arguments: { duration: 2, steps: 4 },
        reasoning: 'Rebuild the index; it takes a while, so follow its progress.',
        progress: true,
      },
    ],
    [
      { tool: 'get-sum', arguments: { a: 'seven', b: 5 }, reasoning: 'Add the numbers the user typed (as written).' },
      {
        tool: 'get-sum',
        arguments: { a: 7, b: 5 },
        reasoning: 'The last call failed on a string argument; retry with numbers.',
      },
      { tool: 'get-tiny-image', arguments: {}, reasoning: 'The report needs a placeholder image.' },
    ],
    [
      {
        tool: 'echo',
        arguments: { message: 'summarise the open incidents' },
        reasoning: 'Repeat the task back so the transcript shows what was asked.',
      },
      {
        tool: 'search_everything',
        arguments: { query: 'incidents' },
        reasoning: 'Look for an incident search tool (it may not exist here).',
      },
      {
        tool: 'trigger-long-running-operation',
        arguments: { duration: 1, steps: 2 },
        reasoning: 'No search tool: fall back to a full scan and watch its progress.',
        progress: true,
      },
    ],
  ],
  ops: [
    [
      {
        tool: 'lookup_customer',
        arguments: { customerId: 'cus_1042' },
        reasoning: 'The ticket mentions Northwind; find their plan before answering.',
      },
      {
        tool: 'search_docs',
        arguments: { query: 'rotate API key', pages: 3 },
        reasoning: 'The customer cannot rotate their API key; find the documented steps.',
        progress: true,
      },
      {
        tool: 'create_ticket',
        arguments: { title: 'Northwind: API key rotation fails', priority: 'normal' },
        reasoning: 'The docs do not cover their case; open a ticket for engineering.',
      },
    ],
    [
      {
        tool: 'lookup_customer',
        arguments: { customerId: 'cus_9999' },
        reasoning: 'Find the customer from the email signature.',
      },
      {
        tool: 'lookup_customer',
        arguments: { customerId: 'cus_3141' },
        reasoning: 'That id was wrong; the signature says Initech, try their id.',
      },
      {
        tool: 'create_ticket',
        arguments: { title: 'Initech: webhooks delayed', priority: 'urgent' },
        reasoning: 'Webhooks are degraded for a paying customer: escalate as urgent.',
      },
      {
        tool: 'create_ticket',
        arguments: { title: 'Initech: webhooks delayed', priority: 'normal' },
        reasoning: 'The urgent queue is full; file it as normal and tell the customer.',
      },
    ],
    [
      {
        tool: 'search_docs',
        arguments: { query: 'rate limits' },
        reasoning: 'The user hit 429s; check the documented limits first.',
        progress: true,
      },
      {
        tool: 'lookup_customer',
        arguments: { customerId: 'cus_2077' },
        reasoning: 'Enterprise customers have higher limits: confirm the plan.',
      },
    ],
  ],
};

/** The most tools/call one episode makes: the pacer budgets by it. */
export const MOST_CALLS_PER_EPISODE = Math.max(...Object.values(PLANS).flatMap((plans) => plans.map((p) => p.length)));
