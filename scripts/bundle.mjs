// Writes the committed bundles that GitHub and `npx evalgate` run: dist/index.js (the action) and
// dist/cli.js, and dist/licenses.txt: the licence of every third-party package the bundles carry (the
// bundles themselves keep no comments). `node scripts/bundle.mjs OUTDIR` writes them elsewhere (the
// staleness test does).
import { build } from 'esbuild';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
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
  metafile: true,
};

const builds = [
  await build({ ...common, entryPoints: ['src/index.ts'], outfile: join(outdir, 'index.js'), banner: { js: requireShim } }),
  await build({
    ...common,
    entryPoints: ['src/bin.ts'],
    outfile: join(outdir, 'cli.js'),
    banner: { js: `#!/usr/bin/env node\n${requireShim}` },
  }),
];

/** The folder of the package a bundled file comes from (the last node_modules/<name> or node_modules/@scope/<name> of its path). */
function packageFolder(input) {
  const match = /^(.*node_modules\/(?:@[^/]+\/)?[^/]+)\//.exec(input);
  return match?.[1];
}

/** One package's entry: name, version, licence, and the text of its licence file (or a note that it ships none). */
function licenceEntry(folder) {
  const { name, version, license } = JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8'));
  const file = readdirSync(folder).find((entry) => /^(licen[cs]e|copying)(\.|$)/i.test(entry));
  const text = file
    ? readFileSync(join(folder, file), 'utf8').trim()
    : `(no licence file in the package; its package.json says ${license})`;
  return `${name} ${version} (${license ?? 'no licence field'})\n\n${text}`;
}

const folders = new Set(builds.flatMap(({ metafile }) => Object.keys(metafile.inputs).map(packageFolder).filter(Boolean)));
const entries = [...folders]
  .filter((folder) => existsSync(join(folder, 'package.json')))
  .map(licenceEntry)
  .sort((a, b) => a.localeCompare(b));
const rule = `\n\n${'-'.repeat(78)}\n\n`;
writeFileSync(
  join(outdir, 'licenses.txt'),
  `Third-party software in dist/index.js and dist/cli.js, with its licence.${rule}${entries.join(rule)}\n`,
);
