import { describe, expect, it } from '@jest/globals';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { evalgate, readJsonLines, writeSuite } from './helpers/evalgate.js';
import { tempDir } from './helpers/records.js';

/* A model command is a program evalgate starts: it must end with the run, whatever it does. */

/** A model that answers "refund", then ignores both the end of its input and SIGTERM; it writes its pid to `pidFile`. */
function stubbornModel(dir: string, pidFile: string): string {
  const path = join(dir, 'stubborn.mjs');
  writeFileSync(
    path,
    `import { writeFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
writeFileSync(${JSON.stringify(pidFile)}, String(process.pid));
process.on('SIGTERM', () => {});
setInterval(() => {}, 1000);
createInterface({ input: process.stdin }).on('line', (line) => process.stdout.write(JSON.stringify({ id: JSON.parse(line).id, text: 'refund' }) + '\\n'));
`,
  );
  return path;
}

/** Whether a process is running (a killed one nobody has reaped yet is a zombie: not running). */
function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  if (!existsSync('/proc')) return true;
  try {
    return !/^\d+ \(.*\) Z /.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

async function stopsRunningWithin(pid: number, ms: number): Promise<boolean> {
  for (const deadline = Date.now() + ms; Date.now() < deadline; await new Promise((resolve) => setTimeout(resolve, 50))) {
    if (!isRunning(pid)) return true;
  }
  return !isRunning(pid);
}

async function settlesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => (timer = setTimeout(resolve, ms, false)));
  try {
    return await Promise.race([promise.then(() => true), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

describe('a model command', () => {
  it.each([
    ['a program that ignores SIGTERM', (model: string) => `exec node ${model}`],
    ['a program the shell started, that would outlive it', (model: string) => `cd . && node ${model}`],
  ])(
    'ends with the run: %s',
    async (_, command) => {
      const dir = tempDir();
      const pidFile = join(dir, 'model.pid');
      const suite = writeSuite(dir, [{ id: 'q', input: 'x', references: ['refund'] }]);
      const modelPid = () => Number(readFileSync(pidFile, 'utf8'));
      const run = evalgate([
        'run',
        '--suite',
        suite,
        '--model',
        `command:${command(stubbornModel(dir, pidFile))}`,
        '--out',
        join(dir, 'out.jsonl'),
        '--no-cache',
      ]);
      // evalgate gives the model 2 s after its input ends and 2 s after SIGTERM: 20 s is ample.
      const ended = await settlesWithin(run, 20_000);
      if (!ended) process.kill(modelPid(), 'SIGKILL'); // what evalgate failed to do; then it ends too
      const result = await run;
      expect(ended).toBe(true);
      expect(result.code).toBe(0);
      expect(readJsonLines(join(dir, 'out.jsonl'))).toMatchObject([{ id: 'q', prediction: 'refund', correct: 1 }]);
      expect(await stopsRunningWithin(modelPid(), 5000)).toBe(true);
    },
    40_000,
  );

  it('is stopped when evalgate is interrupted (Ctrl-C), though its own process group gets no signal', async () => {
    const dir = tempDir();
    const pidFile = join(dir, 'model.pid');
    const model = join(dir, 'silent.mjs');
    // Starts, never answers, ignores SIGTERM and the end of its input.
    writeFileSync(
      model,
      `import { writeFileSync } from 'node:fs';\nwriteFileSync(${JSON.stringify(pidFile)}, String(process.pid));\nprocess.on('SIGTERM', () => {});\nsetInterval(() => {}, 1000);\nprocess.stdin.resume();\n`,
    );
    const suite = writeSuite(dir, [{ id: 'q', input: 'x', references: ['refund'] }]);
    const child = spawn(
      process.execPath,
      ['dist/cli.js', 'run', '--suite', suite, '--model', `command:cd . && node ${model}`, '--out', join(dir, 'out.jsonl'), '--no-cache'],
      { stdio: 'ignore' },
    );
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    for (const deadline = Date.now() + 10_000; !existsSync(pidFile) && Date.now() < deadline;)
      await new Promise((resolve) => setTimeout(resolve, 50));
    const modelPid = Number(readFileSync(pidFile, 'utf8'));
    child.kill('SIGINT');
    expect(await exited).toBe(130);
    expect(await stopsRunningWithin(modelPid, 5000)).toBe(true);
  }, 30_000);

  it('is read as every JSON Lines input: a byte order mark before its first answer, "\\r\\n" line ends', async () => {
    const dir = tempDir();
    const suite = writeSuite(dir, [
      { id: 'q1', input: 'x', references: ['refund'] },
      { id: 'q2', input: 'y', references: ['deny'] },
    ]);
    // A Windows program: UTF-8 with a byte order mark, CRLF line ends.
    writeFileSync(
      join(dir, 'model.mjs'),
      `import { createInterface } from 'node:readline';
let first = true;
createInterface({ input: process.stdin }).on('line', (line) => {
  const { id, messages } = JSON.parse(line);
  process.stdout.write((first ? '\\ufeff' : '') + JSON.stringify({ id, text: messages.at(-1).content === 'x' ? 'refund' : 'deny' }) + '\\r\\n');
  first = false;
});
`,
    );
    const out = join(dir, 'out.jsonl');
    const result = await evalgate([
      'run',
      '--suite',
      suite,
      '--model',
      `command:node ${join(dir, 'model.mjs')}`,
      '--out',
      out,
      '--no-cache',
      '--concurrency',
      '1',
      '--timeout',
      '3000',
      '--retries',
      '0',
    ]);
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/2 records \(0 failed calls, 0 retries/);
    expect(readJsonLines(out)).toMatchObject([
      { id: 'q1', prediction: 'refund', correct: 1 },
      { id: 'q2', prediction: 'deny', correct: 1 },
    ]);
  }, 30_000);

  it("gets evalgate's environment without the Actions runner's secrets", async () => {
    const dir = tempDir();
    const suite = writeSuite(dir, [{ id: 'q', input: 'x', references: ['refund'] }]);
    writeFileSync(
      join(dir, 'model.mjs'),
      `import { writeFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
writeFileSync(${JSON.stringify(join(dir, 'env.json'))}, JSON.stringify(process.env));
createInterface({ input: process.stdin }).on('line', (line) => process.stdout.write(JSON.stringify({ id: JSON.parse(line).id, text: 'refund' }) + '\\n'));
`,
    );
    const secrets = {
      INPUT_TOKEN: 'ghs_secret',
      INPUT_POLICY: 'policy.yml',
      ACTIONS_RUNTIME_TOKEN: 'runtime-token',
      ACTIONS_ID_TOKEN_REQUEST_TOKEN: 'oidc-token',
      ACTIONS_ID_TOKEN_REQUEST_URL: 'https://oidc.example',
      ACTIONS_RESULTS_URL: 'https://results.example',
      ACTIONS_CACHE_URL: 'https://cache.example',
      ACTIONS_RUNTIME_URL: 'https://runtime.example',
    };
    const kept = { OPENAI_API_KEY: 'sk-kept', GITHUB_REPOSITORY: 'octo/models', ACTIONS_STEP_DEBUG: 'true' };
    const result = await evalgate(
      ['run', '--suite', suite, '--model', `command:node ${join(dir, 'model.mjs')}`, '--out', join(dir, 'out.jsonl'), '--no-cache'],
      { ...process.env, ...secrets, ...kept },
    );
    expect(result.code).toBe(0);
    const environment = JSON.parse(readFileSync(join(dir, 'env.json'), 'utf8')) as Record<string, string>;
    for (const name of Object.keys(secrets)) expect(environment).not.toHaveProperty(name);
    expect(environment).toMatchObject({ ...kept, PATH: process.env.PATH });
  });
});
