import { ErrorText } from '../../../contract/errors';

/** SPEC §5: registering needs a selected workspace and a token; the refusal names what is missing. */
export function registerServerRefusal(workspaceId: string | null, accessToken: string | null): string | null {
  if (!workspaceId) return ErrorText.noWorkspace;
  if (!accessToken) return ErrorText.noAuthToken;
  return null;
}
