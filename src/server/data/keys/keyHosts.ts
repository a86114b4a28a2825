// Whether a workspace key may travel to a destination (issue 31 item 2): the destination URL's
// host matches one of the key's hosts — `name` for any port, `name:port` for that port only.
// null (a key from before hosts existed, not yet bound at start) goes nowhere.
export function keyMayGoTo(allowedHosts: readonly string[] | null, destination: string): boolean {
  if (!allowedHosts || allowedHosts.length === 0) return false;
  let url: URL;
  try {
    url = new URL(destination);
  } catch {
    return false;
  }
  const host = url.hostname.toLowerCase();
  const port = url.port || (url.protocol === 'https:' ? '443' : url.protocol === 'http:' ? '80' : '');
  return allowedHosts.some((entry) => entry === host || entry === `${host}:${port}`);
}

/** The entry naming a destination's host (any port), as a key's hosts hold it. */
export function keyHostOf(destination: string): string | undefined {
  try {
    return new URL(destination).hostname.toLowerCase() || undefined;
  } catch {
    return undefined;
  }
}
