import { run } from './main.js';
import { exitOnSignals } from './runner/json-lines-process.js';

// The action's entry point: everything happens in main.ts.
exitOnSignals();
await run();
