// Writes the committed bundles that GitHub and `npx evalgate` run, and dist/licenses.txt: the licence
// of every third-party package the bundles carry (the bundles themselves keep no comments). Each
// program is two files: its entry (dist/index.js, the action; dist/cli.js), which turns source maps on
// and then loads the program (dist/action-program.js, dist/cli-program.js), whose source map lies
// beside it (positions only, no sources inside), so that an unexpected error's stack names src/ files
// and lines. `node scripts/bundle.mjs OUTDIR` writes them elsewhere (the staleness test does).
import { build } from 'esbuild';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';

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

/**
 * A program and its entry: `main` its module, `entry` the file that loads it. The program is split where
 * it imports a dependency only when needed (`await import('vega')`, the runner's HTTP client): those
 * parts are chunks beside it (`cli-chunk-HASH.js`), read only by the commands that use them, so that
 * every other command starts without parsing them. Built as if into dist/ and written to OUTDIR: the
 * maps name the sources from dist/ and the chunks' hashes do not depend on where they are written.
 */
async function bundle({ entry, entryFile, main, mainFile }) {
  const name = mainFile.replace(/\.js$/, '');
  const prefix = name.replace(/-program$/, '');
  // The metrics thread's program (src/pipeline/metrics-thread.ts) beside it, sharing its chunks.
  const thread = `${prefix}-metrics-thread`;
  const program = await build({
    ...common,
    entryPoints: { [name]: main, [thread]: 'src/pipeline/metrics-thread-main.ts' },
    define: { EVALGATE_METRICS_THREAD: JSON.stringify(`${thread}.js`) },
    outdir: 'dist',
    write: false,
    splitting: true,
    chunkNames: `${prefix}-chunk-[hash]`,
    banner: { js: requireShim },
    sourcemap: 'linked',
    sourcesContent: false,
  });
  const loader = await build({
    ...common,
    entryPoints: [entry],
    outfile: join('dist', entryFile),
    write: false,
    plugins: [loadsBeside(`./${main.replace(/^src\//, '').replace(/\.ts$/, '.js')}`, mainFile)],
  });
  for (const { path, contents, text } of [...program.outputFiles, ...loader.outputFiles]) {
    const file = join(outdir, basename(path));
    writeFileSync(file, contents);
    chmodSync(file, text.startsWith('#!') ? 0o755 : 0o644); // as esbuild writes them: a script with a hashbang runs
  }
  return [program, loader];
}

// Chunks of an earlier build: their names change with their contents.
mkdirSync(outdir, { recursive: true });
if (existsSync(outdir)) for (const file of readdirSync(outdir)) if (/^\w+-chunk-/.test(file)) rmSync(join(outdir, file));

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
