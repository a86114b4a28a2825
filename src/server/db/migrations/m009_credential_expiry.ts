// Expired sign-in rows are deleted hourly (src/server/auth/expiredCredentials.ts): every refresh
// adds a refresh_tokens row, so that table grows with use and the cleanup finds its expired rows by
// this index rather than by reading the whole table.
export const m009_credential_expiry = `
create index refresh_tokens_expires on refresh_tokens (expires_at);
`;
