// Business constants of SPEC §9. Durations in milliseconds unless the name says otherwise.
export const TOKEN_EXPIRY_CHECK_MS = 60_000;
export const REFRESH_BEFORE_EXPIRY_MS = 5 * 60_000;
export const RETRIES_AFTER_401 = 1;
export const ACTIVITY_WINDOW_MS = 1_800_000;
export const INACTIVE_RECHECK_MS = 5 * 60_000;
export const SERVERS_CACHE_TTL_MS = 300_000;
export const SCHEMA_DISCOVERY_POLL_MS = 3_000;
export const SCHEMA_DISCOVERY_MAX_ATTEMPTS = 10;
export const NOTIFICATION_BUFFER_SIZE = 50;
export const NOTIFICATION_DROPDOWN_ITEMS = 10;
export const NOTIFICATION_LIST_HEIGHT_PX = 400;
export const NOTIFICATION_BADGE_CAP = 99;
export const NOTIFICATION_LIST_POLL_MS = 30_000;
export const NOTIFICATION_UNREAD_POLL_MS = 15_000;
export const TOAST_LIMIT = 1;
export const TOAST_DURATION_MS = 5_000;
export const TOAST_REMOVE_DELAY_MS = 1_000_000;
export const TOAST_SWIPE_THRESHOLD = 50;
export const LIVE_STREAM_MAX_RECONNECTS = 5;
export const LIVE_STREAM_RECONNECT_MS = 3_000;
export const LIVE_STREAM_INITIAL_DELAY_MS = 100;
export const QUERY_STALE_TIME_MS = 5 * 60_000;
export const QUERY_CACHE_TIME_MS = 10 * 60_000;
export const QUERY_RETRY_BASE_MS = 1_000;
export const QUERY_RETRY_MAX_MS = 30_000;
export const QUERY_MAX_ATTEMPTS = 3;
export const MUTATION_RETRY_DELAY_MS = 1_000;
export const QUERY_PERSIST_MAX_AGE_MS = 24 * 60 * 60_000;
export const FAKE_CHECKOUT_MS = 1_000;
export const AVATAR_PICKER_OPTIONS = 6;
/** Access tokens live 15 minutes; refresh tokens 30 days (docs/architecture.md). */
export const ACCESS_TOKEN_TTL_SECONDS = 15 * 60;
export const REFRESH_TOKEN_TTL_SECONDS = 30 * 24 * 60 * 60;

/** Password length limits (contract/auth.ts validates with them; the sign-up form shows the minimum). */
export const MIN_PASSWORD_LENGTH = 10;
export const MAX_PASSWORD_LENGTH = 128;

/** Local storage keys. SPEC fixes the first two; the rest are ours (docs/architecture.md). */
export const StorageKeys = {
  accessToken: 'access_token',
  refreshToken: 'refresh_token',
  tempAvatar: 'toolscope.temp_avatar',
  currentWorkspace: 'toolscope.current_workspace_id',
  defaultWorkspace: 'toolscope.default_workspace_id',
} as const;

export const ENVIRONMENTS = ['local', 'development', 'staging', 'production'] as const;
export type Environment = (typeof ENVIRONMENTS)[number];
export const ACTIVE_ENVIRONMENT: Environment = 'production';
