// Issue 36 item 2: the risk check of tool definitions. A schema keeps the findings of its current
// definition and whether the check is holding that definition back (it pinned the previous
// version itself); a server keeps how many high findings its definitions have, for its card.
export const m029_tool_risk = `
alter table schemas add column risk_findings jsonb not null default '[]'::jsonb;
alter table schemas add column risk_held boolean not null default false;
alter table servers add column risk_finding_count int not null default 0;
`;
