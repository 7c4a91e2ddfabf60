import { setFlagsFromString } from 'node:v8';

/**
 * Caps how far the V8 heap grows between full collections (HEAP_GROWING_PERCENT). Under load V8
 * otherwise lets the old generation reach up to four times what survived the last full
 * collection before it collects again: the service's ~40 MB of live objects peaked at 150 MB
 * of heap, mostly garbage, and 250-290 MB of RSS. At 50 % RSS peaks near 175 MB for more
 * frequent full collections: CPU per request the same within noise in bench:floor, up to ~5 %
 * more under the mixed benchmark (docs/benchmarks.md); 0 keeps V8's factor. V8 reads the flag
 * at every collection, so setting it at start-up, before the application loads, is enough.
 */
export function applyHeapGrowth(percent: number): void {
  if (percent > 0) setFlagsFromString(`--heap-growing-percent=${percent}`);
}
