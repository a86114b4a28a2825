// Issue 31 item 2: a workspace key carries the hosts it may be sent to. A reference to it from a
// server elsewhere is refused at save and left out at send (data/keys/keyHosts.ts). Keys from
// before this migration have none (null): at start they are bound to the hosts of the servers that
// reference them then (data/keys/legacyKeyHosts.ts), so nothing that worked stops, and nothing new
// is allowed.
export const m027_workspace_key_hosts = `
alter table workspace_keys add column allowed_hosts text[];
`;
