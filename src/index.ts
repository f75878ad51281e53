/*
 * The action's entry point: everything happens in action/main.ts. Source maps are turned on before it
 * loads (Node reads a module's source map as it loads it: the bundle puts action/main.ts and all it
 * imports in a file of its own), so that an unexpected error's stack names src/ files and lines. A
 * signal ends it at once (process/signals.ts).
 */
process.setSourceMapsEnabled(true);
const { main } = await import('./action/main.js');
await main();
