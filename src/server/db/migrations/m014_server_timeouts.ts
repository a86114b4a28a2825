// The proxy under load (docs/proxy.md "Limits").
// A timeout per tool server (docs/proxy.md "Limits"): how long the proxy waits for the server's
// answer before it ends the call with a timeout error. Null = the instance's default
// (TOOLSCOPE_UPSTREAM_TIMEOUT_MS, 60 s).
export const m014_server_timeouts = `
alter table servers add column timeout_ms int check (timeout_ms between 100 and 600000);

-- A progress stream is stored as its first and last notification; the last one's row says how
-- many notifications the stream had (null on every other row).
alter table messages add column progress_count int;
`;
