// Writes the committed bundles GitHub and `npx evalgate` run: dist/index.js (the action) and dist/cli.js.
import { build } from 'esbuild';

// Some dependencies still call require(); an ESM bundle needs one of its own.
const requireShim = "import { createRequire as __evalgateCreateRequire } from 'node:module';\nconst require = __evalgateCreateRequire(import.meta.url);";

const common = {
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  legalComments: 'none',
  logLevel: 'warning',
};

await build({ ...common, entryPoints: ['src/index.ts'], outfile: 'dist/index.js', banner: { js: requireShim } });
await build({ ...common, entryPoints: ['src/bin.ts'], outfile: 'dist/cli.js', banner: { js: `#!/usr/bin/env node\n${requireShim}` } });
