// A lazy page's code that cannot be fetched (the server was rebuilt and the chunk is gone, or the
// network dropped) rejects its dynamic import with a browser-specific message. The error boundary
// tells these apart from a page that crashed: a reload fetches the current build and fixes them.
const CHUNK_LOAD_MESSAGES = [
  /Failed to fetch dynamically imported module/i, // Chromium
  /error loading dynamically imported module/i, // Firefox
  /Importing a module script failed/i, // Safari
  /Unable to preload CSS/i, // Vite's CSS preload
  /Loading (CSS )?chunk .* failed/i,
];

export function isChunkLoadError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  return CHUNK_LOAD_MESSAGES.some((pattern) => pattern.test(error.message));
}
