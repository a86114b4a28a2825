import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// The SPA is served by the Toolscope server from dist/client (same origin as /api and /mcp).
// In `npm run dev` Vite proxies the API to the server started beside it.
const apiTarget = process.env.TOOLSCOPE_DEV_API ?? 'http://127.0.0.1:4000';

export default defineConfig({
  plugins: [react()],
  root: '.',
  build: {
    outDir: 'dist/client',
    emptyOutDir: true,
    sourcemap: true,
    // dist/client/.vite/manifest.json: scripts/bundle-report.mjs reads the chunk graph from it.
    manifest: true,
    chunkSizeWarningLimit: 700,
  },
  server: {
    port: 5173,
    proxy: {
      '/api': { target: apiTarget, changeOrigin: false },
      '/mcp': { target: apiTarget, changeOrigin: false },
    },
  },
});
