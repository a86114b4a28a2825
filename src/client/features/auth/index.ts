// What other features may use of auth: the user's shape and its avatar helpers (the rest —
// slice, listeners, token lifecycle, pages — is auth's own).
export { generatedAvatarUrl, mapUser, readTemporaryAvatar, withTemporaryAvatar, type User } from './userMapping';
export { setTemporaryAvatar } from './temporaryAvatar';
// Deleting the account (settings) ends the session here as signing out does.
export { clearSession } from './session';
