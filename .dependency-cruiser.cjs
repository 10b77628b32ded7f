/**
 * The layering, as rules `npm run lint` checks (dependency-cruiser). docs/architecture.md
 * describes the layers; this file is what holds them. Each rule's comment says why.
 */
const APPS = '^(api/mcp|api|dashboard|router|jobs|ops/monitoring)/';
const LOWER = '^(platform/(store|queue|publishing|media|outbound|cdn|mail)|renderer|templates)/';
/** The domain's vocabulary: what the lower layers may take from core/. */
const LEAVES =
  '^core/(errors|model|entities|schemas/(fields|blocks|page|mediaKey)|rules/(username|pages|roles|branding))[.]ts$';

module.exports = {
  forbidden: [
    {
      name: 'no-cycles',
      comment:
        'No import cycles, type-only imports included: each module can be read (and loaded) after the ones it imports.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'apps-only-from-start',
      comment:
        'Only ops/start/ (and main.ts) composes the apps: api/, api/mcp/, dashboard/, router/, jobs/, ops/monitoring/.',
      severity: 'error',
      from: { pathNot: [APPS, '^ops/start/', '^main[.]ts$'] },
      to: { path: APPS },
    },
    {
      name: 'apps-not-each-other',
      comment:
        'An app does not import another app; what two apps share goes down a layer (platform/edge/, core/ or below).',
      severity: 'error',
      from: { path: APPS },
      to: { path: APPS, pathNot: '^$1/' },
    },
    {
      name: 'api-and-mcp-apart',
      comment: 'api/mcp/ is an app of its own inside api/: neither imports the other (what both need is in core/).',
      severity: 'error',
      from: { path: '^api/(?!mcp/)' },
      to: { path: '^api/mcp/' },
    },
    {
      name: 'nothing-imports-start',
      comment:
        'ops/start/ is the top: only main.ts, ops/scripts/ (through ops/start/tool.ts) and ops/start/ itself import it.',
      severity: 'error',
      from: { pathNot: ['^ops/start/', '^main[.]ts$', '^ops/scripts/'] },
      to: { path: '^(ops/start/|main[.]ts$)' },
    },
    {
      name: 'edge-below-apps',
      comment: 'platform/edge/ is what the web apps share; it imports no app.',
      severity: 'error',
      from: { path: '^platform/edge/' },
      to: { path: [APPS, '^ops/scripts/'] },
    },
    {
      name: 'core-no-adapters',
      comment: 'core/ holds no adapter: nothing from platform/edge/, the apps, ops/start/ or ops/scripts/.',
      severity: 'error',
      from: { path: '^core/' },
      to: { path: [APPS, '^(platform/edge|ops/start|ops/scripts)/', '^main[.]ts$'] },
    },
    {
      name: 'core-no-http',
      comment: 'core/ speaks no HTTP: no Koa, no node:http(s)/http2.',
      severity: 'error',
      from: { path: '^core/' },
      to: { path: ['(^|/)node_modules/(koa|co-body|@koa/[^/]+)/', '^(node:)?(http|https|http2)$'] },
    },
    {
      name: 'lower-layers-only-core-leaves',
      comment:
        'platform/ (but edge/), renderer/ and templates/ take from core/ only its vocabulary (errors, model, the page and block schemas, fields, media keys, the stored entities, the username rule, when a page is live, the roles), and nothing from above core.',
      severity: 'error',
      from: { path: LOWER },
      to: { path: ['^core/', APPS, '^(platform/edge|ops/start|ops/scripts)/', '^main[.]ts$'], pathNot: LEAVES },
    },
    {
      name: 'core-leaves-are-leaves',
      comment:
        'The vocabulary imports nothing of the service but the vocabulary, so a lower layer using it pulls in nothing else.',
      severity: 'error',
      from: { path: LEAVES },
      to: { dependencyTypes: ['local'], pathNot: LEAVES },
    },
    {
      name: 'scripts-no-apps',
      comment: 'A command-line tool calls core/ or the lower layers, never an app.',
      severity: 'error',
      from: { path: '^ops/scripts/' },
      to: { path: APPS },
    },
    {
      name: 'renderer-only-renders',
      comment:
        'renderer/ turns a page into strings and bytes: no storage, no CDN, no publishing (platform/publishing/ does that).',
      severity: 'error',
      from: { path: '^renderer/' },
      to: { path: ['^platform/(publishing|cdn|mail|outbound)/', '^platform/store/(?!layout[.]ts$)'] },
    },
    {
      name: 'not-to-unresolvable',
      comment: 'Every import resolves.',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(node_modules|dist|data|coverage|test|bench|ops/build|ops/deploy)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
    },
    moduleSystems: ['es6', 'cjs'],
  },
};
