// Runs one job in this process and reports its peak memory: `node bench/measure.mjs floor FILE...` reads
// each FILE in turn and JSON-parses every line and nothing else; `node bench/measure.mjs evalgate ARGS...` runs the
// bundled CLI exactly as `evalgate ARGS...` would. The peak resident set size (KiB) goes to stderr as
// "maxRSS <n>" when the process exits.
import { createReadStream } from 'node:fs';

process.on('exit', () => process.stderr.write(`maxRSS ${process.resourceUsage().maxRSS}\n`));

const [job, ...rest] = process.argv.slice(2);
if (job === 'floor') {
  let records = 0;
  for (const file of rest) {
    let pending = '';
    // Node's default chunk (64 KiB): 1 MiB chunks made this floor twice as slow (fresh memory faulted in for each).
    for await (const chunk of createReadStream(file, { encoding: 'utf8' })) {
      const lines = (pending + chunk).split('\n');
      pending = lines.pop();
      for (const line of lines) if (line) (JSON.parse(line), records++);
    }
    if (pending) (JSON.parse(pending), records++);
  }
  process.stdout.write(`${records}\n`);
} else if (job === 'evalgate') {
  process.argv = [process.argv[0], 'evalgate', ...rest];
  await import('../dist/cli.js');
} else {
  throw new Error('usage: node bench/measure.mjs floor FILE... | evalgate ARGS...');
}
