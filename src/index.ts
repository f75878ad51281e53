import { run } from './action/main.js';

// The action's entry point: everything happens in action/main.ts. A signal ends it at once (process/signals.ts).
await run();
