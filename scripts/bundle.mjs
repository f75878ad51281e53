// Writes the committed bundles that GitHub and `npx evalgate` run: dist/index.js (the action) and
// dist/cli.js. `node scripts/bundle.mjs OUTDIR` writes them elsewhere (the staleness test does).
import { build } from 'esbuild';
import { join } from 'node:path';

const outdir = process.argv[2] ?? 'dist';

// Some dependencies still call require(); an ESM bundle needs one of its own.
const requireShim =
  "import { createRequire as __evalgateCreateRequire } from 'node:module';\nconst require = __evalgateCreateRequire(import.meta.url);";

const common = {
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  legalComments: 'none',
  logLevel: 'warning',
};

await build({ ...common, entryPoints: ['src/index.ts'], outfile: join(outdir, 'index.js'), banner: { js: requireShim } });
await build({
  ...common,
  entryPoints: ['src/bin.ts'],
  outfile: join(outdir, 'cli.js'),
  banner: { js: `#!/usr/bin/env node\n${requireShim}` },
});
