// Builds the Studio (web/) into the service's build output, dist/web (docs/studio.md): index.html and
// hashed files under assets/, nothing inlined (the CSP allows no inline script, style or data: URL).
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import preact from '@preact/preset-vite';

const web = path.dirname(fileURLToPath(import.meta.url));
// `npx vite --config web/vite.config.ts` serves the app with reloads; the API calls go to a service on CUTROOM_DEV_API.
const api = process.env.CUTROOM_DEV_API ?? 'http://127.0.0.1:8080';

export default defineConfig({
  root: web,
  base: '/',
  publicDir: false,
  plugins: [preact({ prerender: { enabled: false } })],
  build: {
    outDir: path.join(web, '../dist/web'),
    emptyOutDir: true,
    assetsDir: 'assets',
    assetsInlineLimit: 0,
    target: 'es2022',
    modulePreload: { polyfill: false },
    reportCompressedSize: false,
  },
  server: { proxy: { '/api': api, '/files': api } },
});
