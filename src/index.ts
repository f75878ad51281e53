import { run } from './main.js';
import { enableMetricsWorkers, isMetricsWorker, serveMetricsWorker } from './metrics/parallel.js';

// The action's entry point: everything happens in main.ts. This bundle is also the metrics worker's
// script (see metrics/parallel.ts).
if (isMetricsWorker()) {
  serveMetricsWorker();
} else {
  enableMetricsWorkers(new URL(import.meta.url));
  await run();
}
