import { afterAll, describe, expect, it } from '@jest/globals';
import { copyFileSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { delimiter, join, resolve } from 'node:path';
import { tempDir } from './helpers/records.js';
import { runProcess, type RunResult } from './helpers/run.js';

/*
 * The documented commands, run as printed (issue 23): the shell blocks of README.md (the set-up and
 * the install), its inline `npx evalgate ...` commands, docs/cli.md's shell block, and the commands
 * `evalgate demo` prints. The test runs where the README's set-up leaves a reader: in this checkout
 * after `npm ci`, on the committed dist/. `npx evalgate` finds this checkout's bin; plain `evalgate` is
 * on the PATH as `npm install -g` puts it there, a link to dist/cli.js (package.test.ts installs it for
 * real, from a clone's git URL). A synopsis (placeholders such as P, FILE, [--json]) cannot run as it
 * is: its command must exist and take every option the synopsis shows. Every command the test does
 * not run is in EXEMPT with its reason.
 */

const EXEMPT: Record<string, string> = {
  'npm ci':
    "the README's set-up itself: this test runs in the checkout it made (installing again would pull node_modules from under the other tests)",
  'npm test': 'runs this test, and every other one, for minutes: CI runs it (workflows.test.ts checks that it does)',
  'npm install -g github:evalgate/evalgate#v1':
    'needs the network and the published tag: package.test.ts installs a local clone the same way, by its git URL, offline',
};

/** Files a command names as the reader's own: the test gives it the demo's, under those names. */
const READERS_FILES: Record<string, string> = {
  'policy.yml': 'policies/customer-support.yml',
  'records.jsonl': 'examples/billing/candidate-a.jsonl',
  'baseline.jsonl': 'examples/billing/baseline.jsonl',
};

/**
 * The commands of a file's ```sh blocks: a line ending in a backslash, or indented under a command,
 * continues it; comments and `&&` split off.
 */
function shellCommands(file: string): string[] {
  const blocks = [...readFileSync(file, 'utf8').matchAll(/^```sh\n([\s\S]*?)^```/gm)].map((match) => match[1]);
  return blocks.flatMap((block) =>
    block
      .replace(/[ \t]*\\\n[ \t]*/g, ' ')
      .replace(/\n[ \t]+(?=\S)/g, ' ')
      .split('\n')
      .map((line) => line.replace(/\s+#.*$/, '').trim())
      .filter(Boolean)
      .flatMap((line) => line.split(' && ').map((part) => part.trim())),
  );
}

/** The inline `npx evalgate ...` commands of a file's prose (a span may wrap across lines). */
function inlineCommands(file: string): string[] {
  const prose = readFileSync(file, 'utf8').replace(/^```[\s\S]*?^```/gm, '');
  return [...prose.matchAll(/`(npx evalgate [^`]+)`/g)].map((match) => match[1].replace(/\s+/g, ' '));
}

/** The synopsis rows of the README's command table (`evalgate metrics RECORDS.jsonl [--json]`). */
function tableSynopses(file: string): string[] {
  return [...readFileSync(file, 'utf8').matchAll(/^\| `(evalgate [^`]+)` \|/gm)].map((match) => match[1].replace(/\\\|/g, '|'));
}

/** A synopsis, not a command: it has placeholders (upper-case names, optional parts, alternatives, "..."). */
const isSynopsis = (command: string) => /\[|\||\.\.\.|(^|[\s=/])[A-Z][A-Z0-9_]*\b/.test(command);

const checkout = process.cwd();
/** Files the documented commands write in the checkout (the README's judged example: run, then metrics and gate read it). */
const WRITTEN_IN_CHECKOUT = ['judged.jsonl'];
afterAll(() => {
  for (const file of WRITTEN_IN_CHECKOUT) rmSync(join(checkout, file), { force: true });
});
const onPath = tempDir();
symlinkSync(resolve('dist/cli.js'), join(onPath, 'evalgate'));
const env = {
  ...process.env,
  PATH: `${onPath}${delimiter}${process.env.PATH ?? ''}`,
  npm_config_offline: 'true',
  npm_config_update_notifier: 'false',
  NO_COLOR: '1',
};

/** Runs a command as printed, with sh: in the checkout, or in a folder of the reader's files when it names them. */
async function runAsPrinted(command: string): Promise<RunResult> {
  const named = Object.keys(READERS_FILES).filter((file) => command.split(' ').includes(file));
  let cwd = checkout;
  if (named.length > 0) {
    cwd = tempDir();
    for (const file of named) copyFileSync(READERS_FILES[file], join(cwd, file));
  }
  return runProcess('sh', ['-c', command], env, cwd);
}

/**
 * A command ran: it exited 0, or 1 for a gate that failed (its verdict, not a broken command), with
 * nothing on stderr; `run` says its progress and summary there and writes its records to --out.
 */
function expectRan(command: string, result: RunResult): void {
  const codes = /\bevalgate gate\b|cli\.js gate\b/.test(command) ? [0, 1] : [0];
  if (/\b(evalgate|cli\.js) run\b/.test(command)) {
    expect({ command, code: result.code, stderr: /error/i.test(result.stderr) }).toEqual({ command, code: 0, stderr: false });
    return;
  }
  expect({ command, code: result.code, stderr: result.stderr }).toEqual({ command, code: expect.any(Number), stderr: '' });
  expect([command, codes.includes(result.code!)]).toEqual([command, true]);
  expect(result.stdout.trim()).not.toBe('');
}

const helpTexts = new Map<string, Promise<RunResult>>();
/** A synopsis's command exists and its --help lists every option the synopsis shows. */
async function expectSynopsis(synopsis: string): Promise<void> {
  const words = synopsis.replace(/^npx /, '').split(/\s+/);
  const command = words[1]?.startsWith('-') ? '' : words[1];
  if (!helpTexts.has(command))
    helpTexts.set(command, runProcess(process.execPath, ['dist/cli.js', ...(command ? [command] : []), '--help']));
  const help = await helpTexts.get(command)!;
  expect([synopsis, help.code]).toEqual([synopsis, 0]);
  const options = [...synopsis.matchAll(/(?<![\w-])--[a-z][a-z-]*/g)].map((match) => match[0]);
  expect([synopsis, options.filter((option) => !new RegExp(`${option}\\b`).test(help.stdout))]).toEqual([synopsis, []]);
}

async function check(commands: string[]): Promise<{ ran: string[]; synopses: string[]; exempt: string[] }> {
  const seen = { ran: [] as string[], synopses: [] as string[], exempt: [] as string[] };
  for (const command of commands) {
    if (command in EXEMPT) seen.exempt.push(command);
    else if (isSynopsis(command)) {
      await expectSynopsis(command);
      seen.synopses.push(command);
    } else {
      expectRan(command, await runAsPrinted(command));
      seen.ran.push(command);
    }
  }
  return seen;
}

describe('the documented commands, as printed', () => {
  it("README.md: the set-up, the install and its inline commands run; its table's synopses name real options", async () => {
    const seen = await check([...shellCommands('README.md'), ...inlineCommands('README.md'), ...tableSynopses('README.md')]);
    expect(seen.ran).toEqual(
      expect.arrayContaining([
        'npm run demo',
        'evalgate gate --policy policy.yml --candidate records.jsonl --baseline baseline.jsonl',
        'npx evalgate diff --candidate examples/billing/candidate-a.jsonl --baseline examples/billing/baseline.jsonl',
      ]),
    );
    expect(seen.synopses.length).toBeGreaterThanOrEqual(10);
    // Every exemption is of a command the README still prints.
    expect(seen.exempt.sort()).toEqual(Object.keys(EXEMPT).sort());
  }, 120_000);

  it('docs/cli.md: every synopsis names real options; the commands without placeholders run', async () => {
    const seen = await check([...shellCommands('docs/cli.md'), ...inlineCommands('docs/cli.md')]);
    expect(seen.ran).toEqual(expect.arrayContaining(['npx evalgate schema', 'npx evalgate --version']));
    expect(seen.synopses.length).toBeGreaterThanOrEqual(15);
    expect(seen.exempt).toEqual([]);
  }, 120_000);

  it('evalgate demo: the commands it prints run as printed', async () => {
    const demo = await runProcess(process.execPath, ['dist/cli.js', 'demo'], env);
    expect(demo.code).toBe(0);
    const printed = [...demo.stdout.matchAll(/: ((?:npx )?evalgate [^\n]+)$/gm)].map((match) => match[1].trim());
    expect(printed.map((command) => command.replace(/^npx /, '').split(' ')[1])).toEqual(['gate', 'diff']);
    const seen = await check(printed);
    expect(seen.ran).toEqual(printed);
  }, 120_000);
});
