// Issue 37 item 4: the browser origins that may call a server's proxy URL (CORS). Empty: no
// browser page but Toolscope's own may (what every server had before).
export const m028_server_allowed_origins = `
alter table servers add column allowed_origins text[] not null default '{}';
`;
