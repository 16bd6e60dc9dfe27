import node from '@astrojs/node';
import react from '@astrojs/react';
import AstroPWA from '@vite-pwa/astro';
import { defineConfig } from 'astro/config';

// Pages render on the server by default; static pages opt in with `export const prerender = true`.
// The node adapter runs in standalone mode, but scripts/start.ts owns the HTTP server and the
// process lifecycle (it sets ASTRO_NODE_AUTOSTART=disabled and uses the exported handler).
export default defineConfig({
  output: 'server',
  // Astro's origin check refuses every form-encoded POST without a same-site Origin, API clients
  // (curl, scripts) included. The API has its own rule (src/server/http/csrf.ts) and pages apply
  // the same-origin rule in src/middleware.ts.
  security: { checkOrigin: false },
  adapter: node({ mode: 'standalone' }),
  integrations: [
    react(),
    // The service worker precaches the static assets and the offline page; page requests always go
    // to the network (pages can be private or fresh) and fall back to the /offline page without one.
    // src/components/site-runtime.ts registers it at '/' with scope '/'.
    AstroPWA({
      registerType: 'autoUpdate',
      injectRegister: false,
      includeAssets: ['favicon.ico', 'favicon.svg', 'icons/*.png', 'icons/*.svg'],
      manifest: {
        id: '/',
        name: '造字联盟官网',
        short_name: '造字联盟',
        description: '开源中文字体库、书法百科与字体工具',
        lang: 'zh-CN',
        start_url: '/',
        scope: '/',
        display: 'standalone',
        background_color: '#f8f6f1',
        theme_color: '#c23a2b',
        icons: [
          { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png' },
          { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png' },
          { src: '/icons/maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
          { src: '/icons/icon.svg', sizes: 'any', type: 'image/svg+xml' },
        ],
      },
      workbox: {
        globPatterns: ['_astro/**/*.{js,css}', 'offline.html', 'favicon.svg', 'icons/*.{png,svg}'],
        navigateFallback: null,
        cleanupOutdatedCaches: true,
        runtimeCaching: [
          // Articles, encyclopedia entries, cases, albums and collections a reader opened stay
          // readable offline: the network first, the copy kept when it does not answer.
          {
            urlPattern: ({ request, url }) =>
              request.mode === 'navigate' && /^\/(news|zixun|baike|case|album|heji)\/[^/]+$/.test(url.pathname),
            handler: 'NetworkFirst',
            options: {
              cacheName: 'reading',
              networkTimeoutSeconds: 5,
              expiration: { maxEntries: 40, maxAgeSeconds: 30 * 24 * 3600 },
              precacheFallback: { fallbackURL: '/offline' },
            },
          },
          // Their covers and pictures, kept as they were seen.
          {
            urlPattern: ({ request, url }) => request.destination === 'image' && url.pathname.startsWith('/files/'),
            handler: 'CacheFirst',
            options: { cacheName: 'reading-images', expiration: { maxEntries: 200, maxAgeSeconds: 30 * 24 * 3600 } },
          },
          {
            urlPattern: ({ request }) => request.mode === 'navigate',
            handler: 'NetworkOnly',
            // @vite-pwa/astro lists prerendered pages without the .html suffix.
            options: { precacheFallback: { fallbackURL: '/offline' } },
          },
        ],
      },
      devOptions: { enabled: false },
    }),
  ],
  server: { port: 4321 },
  trailingSlash: 'never',
  // Every stylesheet is written into the page: a page's CSS (20–60 KB, 5–12 KB compressed) costs less
  // than the round trips of the eight to ten small files it is split into, which all block the first
  // paint on a phone network. Scripts stay files (below).
  build: { format: 'file', inlineStylesheets: 'always' },
  vite: {
    // Page scripts stay files, never inlined into the page: the Content-Security-Policy allows
    // scripts from this origin and only the inline scripts it knows by hash (src/server/http/csp.ts).
    build: { assetsInlineLimit: 0 },
    // Native and WASM packages stay outside the server bundle and load from node_modules.
    ssr: { external: ['@electric-sql/pglite', 'pg', 'pino', 'fontkit', 'harfbuzzjs'] },
  },
});
