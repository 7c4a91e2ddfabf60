/**
 * Import rules CI enforces (`npm run lint:deps`): arrows point down.
 *
 * Every folder of src/ has a place in LAYERS, top to bottom, one folder per layer. A folder may
 * import the folders below it and nothing above it, so no two folders can ever import each
 * other, directly or through others (no folder-level cycle), and src/database and src/common
 * (the bottom layers) never reach into a feature. A new folder must be given a layer before it may
 * import anything. File-level cycles are forbidden everywhere, within a folder too.
 * docs/architecture.md explains the layers.
 */
const LAYERS = [
  // Command-line entry points, over the composition root (src/*.ts: the application module,
  // its factory, main) and the demo data it seeds.
  ['cli'],
  ['app'],
  ['seed'],
  // Demand letters and reminders: the figures of receivables and interest, the collection account
  // of bank, printed by documents; the demo seed gives its tenants holds and reminders.
  ['letters'],
  // The statement of account: its own ledger statement, interest's figures, printed by documents
  // and written by exports' XLSX writer, so it sits above all three.
  ['statements'],
  // The GST returns (GSTR-1) made from the tax invoices and credit notes: written by exports'
  // XLSX writer, the filer's GSTIN from gst-settings.
  ['gst-returns'],
  // The books: accounting vouchers of every record (demands, receipts, credit notes, booking
  // cancellations and refunds) for TallyPrime; streamed as exports stream, so above exports.
  ['books'],
  // Features over the records: printed documents, files, cancellations, operations.
  ['documents'],
  ['exports'],
  ['cancellations'],
  ['events'],
  ['webhooks'],
  ['housekeeping'],
  ['health'],
  // Bank accounts and statement import (matching statement lines to receipts comes later).
  ['bank'],
  // One payment over many dues, recorded as receipts.
  ['payments'],
  // What buyers owe (ageing): reads demands, splits and receipts with its own SQL.
  ['receivables'],
  // Interest on late payment: its own policy, statement and waivers; raises INTEREST demands
  // through demands. Below receivables, so a statement of account can show its figures.
  ['interest'],
  // "Owed as of a date": a booking's records and the rules over them (SQL fragments for the
  // set-based readers), read by everything above that says what a buyer owes.
  ['ledger'],
  // The records, each over the one below.
  ['receipts'],
  ['demands'],
  ['bookings'],
  // Tenants: creating them (with their configuration), the configuration, numbering.
  ['tenants'],
  ['tenant-config'],
  ['numbering'],
  // The tenant's GST settings (registration, filed periods): read by the features that tax
  // demands, in their transaction.
  ['gst-settings'],
  // GST: the tax rule of a demand, the GSTIN and the booking's class (pure), for the features
  // above that tax demands and print invoices.
  ['gst'],
  // The search engine every catalogue (receipts, demands, bookings) is compiled by.
  ['search'],
  // The request pipeline: auth, tenancy guard and transaction, idempotency, problems, swagger.
  ['http'],
  // The database connection and migrations.
  ['database'],
  // What the process runs on: configuration, lifecycle, replicas, metrics, logs, outbox.
  ['platform'],
  // Small domain primitives (money, dates, enums, the error type, the tenant context).
  ['common'],
];

/** `src/app.module.ts`, `src/main.ts` ... count as the `app` folder. */
const folderPath = (names) =>
  `^src/(${names.map((n) => (n === 'app' ? '[^/]+\\.ts$' : `${n}/`)).join('|')})`;

const layerRules = LAYERS.flatMap((layer, i) => {
  const above = LAYERS.slice(0, i).flat();
  const rules = [];
  if (above.length > 0) {
    rules.push({
      name: 'arrows-point-down',
      severity: 'error',
      comment: `src/${layer.join(', src/')} may not import a layer above it (${above.join(', ')}).`,
      from: { path: folderPath(layer) },
      to: { path: folderPath(above) },
    });
  }
  return rules;
});

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
    ...layerRules,
    {
      name: 'every-folder-has-a-layer',
      severity: 'error',
      comment:
        'A folder of src/ that is not in LAYERS: give it a layer in .dependency-cruiser.cjs.',
      from: { path: '^src/[^/]+/', pathNot: folderPath(LAYERS.flat().filter((n) => n !== 'app')) },
      to: {},
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
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default'],
    },
  },
};
