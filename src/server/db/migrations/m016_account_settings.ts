// Account settings (docs/settings.md): each refresh token remembers the browser and address it was
// issued to, so the list of active sign-ins can say which device a sign-in is and where it was
// last used from (the newest token of a family carries the latest). Never edit a landed migration.
export const m016_account_settings = `
alter table refresh_tokens add column user_agent text;
alter table refresh_tokens add column ip text;
create index refresh_tokens_user_family on refresh_tokens (user_id, family_id);
`;
