#!/usr/bin/env node
/*
 * The CLI's entry point and the one place it ends the process. Source maps are turned on before the
 * program loads (Node reads a module's source map as it loads it: the bundle puts the program, from
 * cli/index.ts on, in a file of its own), so that an unexpected error's stack names src/ files and
 * lines. A signal ends it at once (process/signals.ts).
 */
process.setSourceMapsEnabled(true);
const { runCli } = await import('./cli/index.js');

/** Unexpected errors are bugs: print them (with their stack) and exit 2 rather than let a half-written result pass as success. */
function main(): void {
  // A reader that stops early (`evalgate metrics ... | head`) is not an error.
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw error;
  });
  runCli(process.argv.slice(2), {
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
    colour: process.stdout.isTTY === true && !process.env.NO_COLOR,
    interactive: process.stderr.isTTY === true,
    threads: process.env.EVALGATE_THREADS,
  }).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      process.stderr.write(`evalgate: internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      process.exitCode = 2;
    },
  );
}

main();
