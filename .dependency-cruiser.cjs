/**
 * Import rules CI enforces (`npm run lint:deps`): no cycles, and arrows point down —
 * cross-cutting code (src/common, src/database) never reaches into a feature folder.
 */
const FEATURES = '^src/(bookings|demands|receipts|cancellations|exports|documents|numbering|tenant-config|seed|health|housekeeping|webhooks)/';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'An import cycle makes load order and module boundaries ambiguous.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'common-stays-below-features',
      severity: 'error',
      comment: 'src/common and src/database are used by features, never the reverse.',
      from: { path: '^src/(common|database)/' },
      to: { path: FEATURES },
    },
    {
      name: 'no-unresolvable',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^dist/|\\.spec\\.ts$)' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'] },
  },
};
