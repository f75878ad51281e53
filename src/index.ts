import { run } from './action/main.js';
import { exitOnSignals } from './process/signals.js';

// The action's entry point: everything happens in action/main.ts.
exitOnSignals();
await run();
