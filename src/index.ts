import { run } from './main.js';

// The action's entry point: everything happens in main.ts.
await run();
