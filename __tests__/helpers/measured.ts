import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { tempDir } from './records.js';
import type { RunResult } from './run.js';

/*
 * A bundle (dist/cli.js, dist/index.js) run in a child process with its time and peak memory: the
 * process writes its own CPU time and maximum resident set size when it exits (a preloaded module), so
 * no tool outside Node is needed. CPU time, unlike the time on the clock, does not grow when other
 * jobs share the machine's cores.
 */

export interface MeasuredRun extends RunResult {
  /** The signal that ended the process, if one did (then `code` is null). */
  signal: NodeJS.Signals | null;
  /** When it ended (Date.now()), and how long it ran, in seconds. */
  endedAt: number;
  seconds: number;
  /** Its peak resident set size in MiB, and the CPU time of all its threads in seconds; undefined when it did not exit by itself (a signal ended it). */
  peakMiB: number | undefined;
  cpuSeconds: number | undefined;
}

/** The preloaded module: at exit, the process's resource usage (maxRSS in KiB, CPU times in µs) into the file its environment names. */
function usageRecorder(): string {
  const file = join(tempDir(), 'usage.mjs');
  writeFileSync(
    file,
    "import { writeFileSync } from 'node:fs';\nprocess.on('exit', () => writeFileSync(process.env.EVALGATE_TEST_USAGE_FILE, JSON.stringify(process.resourceUsage())));\n",
  );
  return pathToFileURL(file).href;
}

export interface MeasureOptions {
  /** The Node binary (the action's tests may run on Node 24). */
  node?: string;
  env?: NodeJS.ProcessEnv;
  /** The process is killed (SIGKILL) if it runs longer. */
  killAfterMs: number;
  /** Called once it has started (to signal it, say). */
  onStart?: (child: ChildProcess) => void;
}

/** Runs `node <script> <args>` (a bundle, from the repository's root) to its end, measured. */
export function measured(
  script: string,
  args: string[],
  { node = process.execPath, env = process.env, killAfterMs, onStart }: MeasureOptions,
): Promise<MeasuredRun> {
  const usageFile = join(tempDir(), 'usage.json');
  const started = Date.now();
  const child = spawn(node, ['--import', usageRecorder(), join(process.cwd(), script), ...args], {
    env: { ...env, EVALGATE_TEST_USAGE_FILE: usageFile },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const timer = setTimeout(() => child.kill('SIGKILL'), killAfterMs);
  onStart?.(child);
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      const endedAt = Date.now();
      const usage = existsSync(usageFile) ? (JSON.parse(readFileSync(usageFile, 'utf8')) as NodeJS.ResourceUsage) : undefined;
      const peakMiB = usage && usage.maxRSS / 1024;
      const cpuSeconds = usage && (usage.userCPUTime + usage.systemCPUTime) / 1e6;
      resolve({ code, signal, stdout, stderr, endedAt, seconds: (endedAt - started) / 1000, peakMiB, cpuSeconds });
    });
  });
}
