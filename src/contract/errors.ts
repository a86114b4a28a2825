// The error texts of SPEC §8, letter for letter. Both sides import them so a text is written once.
export const ErrorText = {
  apiError: (status: number, message: string) => `API Error ${status}: ${message}`,
  unknownError: 'Unknown error',
  invalidJson: 'Invalid JSON in response',
  tokenRefreshFailed: (status: number) => `Token refresh failed: ${status}`,
  noRefreshToken: 'No refresh token available',
  noAuthToken: 'No authentication token',
  noAccessToken: 'No access token',
  noWorkspace: 'No workspace selected',
  invalidLoginParameters: 'Invalid login parameters',
  authenticationRequired: 'Authentication required',
  failedToLoadServers: 'Failed to load servers',
  servicesHealthFailed: (status: number) => `Failed to fetch services health: ${status}`,
  serviceHealthFailed: (status: number) => `Failed to fetch service health: ${status}`,
  genericListError: (statusText: string) => `API error: ${statusText}`,
  priceIdNotConfigured: 'Price ID not configured for this plan',
  paymentFailed: 'Payment Failed',
  failedToCreateWorkspace: 'Failed to create workspace',
  markReadFailed: 'Failed to mark notifications as read',
  markAllReadFailed: 'Failed to mark all notifications as read',
  archiveFailed: 'Failed to archive notifications',
  markOneReadFailed: 'Failed to mark notification as read',
} as const;

/** Machine-readable codes carried beside `message` in every API error body. */
export type ApiErrorCode =
  | 'bad_request'
  | 'validation_failed'
  | 'unauthorized'
  | 'forbidden'
  | 'email_unverified'
  | 'not_found'
  | 'conflict'
  | 'payload_too_large'
  | 'too_many_requests'
  | 'plan_limit'
  | 'service_unavailable'
  | 'not_implemented'
  | 'internal';

/** The JSON body of every 4xx/5xx answer of the API. `fields` names the offending inputs. */
export interface ApiErrorBody {
  message: string;
  code: ApiErrorCode;
  fields?: Record<string, string>;
}
