// Writes the committed bundles that GitHub and `npx evalgate` run, and dist/licenses.txt: the licence
// of every third-party package the bundles carry (the bundles themselves keep no comments). Each
// program is two files: its entry (dist/index.js, the action; dist/cli.js), which turns source maps on
// and then loads the program (dist/action-program.js, dist/cli-program.js), whose source map lies
// beside it (positions only, no sources inside), so that an unexpected error's stack names src/ files
// and lines. `node scripts/bundle.mjs OUTDIR` writes them elsewhere (the staleness test does).
import { build } from 'esbuild';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';

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

/** An entry's `await import(program)` loads the program's bundle beside it at run time, rather than bundling it in. */
function loadsBeside(program, file) {
  return {
    name: 'loads-beside',
    setup(entry) {
      entry.onResolve({ filter: /.*/ }, (args) =>
        args.kind === 'dynamic-import' && args.path === program ? { path: `./${file}`, external: true } : undefined,
      );
    },
  };
}

/** A program and its entry: `main` its module, `entry` the file that loads it. */
async function bundle({ entry, entryFile, main, mainFile }) {
  const program = await build({
    ...common,
    entryPoints: [main],
    outfile: join(outdir, mainFile),
    banner: { js: requireShim },
    sourcemap: 'linked',
    sourcesContent: false,
  });
  const loader = await build({
    ...common,
    entryPoints: [entry],
    outfile: join(outdir, entryFile),
    plugins: [loadsBeside(`./${main.replace(/^src\//, '').replace(/\.ts$/, '.js')}`, mainFile)],
  });
  keepSourcesAsFromDist(join(outdir, `${mainFile}.map`));
  return [program, loader];
}

/** The map's sources named from dist/ wherever it was written (`../src/cli/index.ts`): the same map in any OUTDIR. */
function keepSourcesAsFromDist(mapFile) {
  const map = JSON.parse(readFileSync(mapFile, 'utf8'));
  map.sources = map.sources.map((source) => relative('dist', resolve(outdir, source)));
  writeFileSync(mapFile, JSON.stringify(map));
}

const builds = [
  ...(await bundle({ entry: 'src/index.ts', entryFile: 'index.js', main: 'src/action/main.ts', mainFile: 'action-program.js' })),
  ...(await bundle({ entry: 'src/bin.ts', entryFile: 'cli.js', main: 'src/cli/index.ts', mainFile: 'cli-program.js' })),
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
