/**
 * SPEC §2: the 'No tool servers connected' banner shows when loading is done, there are no
 * servers, and the current path is not /servers. "Done" means the list arrived: while loading,
 * or when it failed, we do not know that there are none.
 */
export function shouldShowNoServersBanner({
  loaded,
  serverCount,
  pathname,
}: {
  loaded: boolean;
  serverCount: number;
  pathname: string;
}): boolean {
  return loaded && serverCount === 0 && pathname !== '/servers';
}
