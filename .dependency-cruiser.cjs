// Import rules `npm run check` enforces (dependency-cruiser). The layout they keep is described in
// README.md, "Architecture".
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'Modules that import each other cannot be understood, tested or loaded on their own.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'engine-is-pure',
      severity: 'error',
      comment:
        'src/server/engine is pure font code (bytes in, data out): no database, HTTP, storage, cache or domain module.',
      from: { path: '^src/server/engine/' },
      to: {
        path: '^src/server/',
        pathNot: ['^src/server/engine/', '^src/server/paths\\.ts$'],
      },
    },
    {
      name: 'browser-code-stays-out-of-the-server',
      severity: 'error',
      comment:
        'The browser client, islands, stores, shared helpers and the API contract ship to the browser; server code must not come with them.',
      from: { path: '^src/(api|islands|stores|lib|contract)/' },
      to: { path: '^src/server/' },
    },
    {
      name: 'opencc-tables-stay-out-of-the-site',
      severity: 'error',
      comment:
        "OpenCC's converters hold about 110 MB of tries for as long as a process lives; the site reads the forms it needs from src/server/engine/data/variant-forms.txt, which npm run identify:forms writes.",
      from: { path: '^src/' },
      to: { path: 'node_modules/opencc-js' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '\\.astro$' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.tsx', '.js', '.mjs'] },
  },
};
