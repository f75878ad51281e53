import { describe, expect, it } from '@jest/globals';
import { join } from 'node:path';
import { runAction, STRICT_POLICY, useFakeGitHub, writeFile, regressionRuns } from './helpers/action.js';
import type { FakeGitHub } from './helpers/github-server.js';
import { tempDir } from './helpers/records.js';
import { gateArgs } from './helpers/evalgate.js';
import { runProcess } from './helpers/run.js';

/*
 * The bundles carry source maps and turn them on: an unexpected error in the CLI or the action prints
 * its stack at src/ files and lines; bad input stays one clear line. The unexpected error is a real one:
 * Node run with --disallow-code-generation-from-strings (a hardened runtime) refuses the `new Function`
 * with which vega compiles its charts' expressions, so writing the HTML report fails deep in the program.
 */

const HARDENED = ['--disallow-code-generation-from-strings', '--stack-trace-limit=50'];
/** A stack frame at a position in the sources, e.g. "(/…/src/report/vega-charts.ts:27:16)". */
const srcFrame = (file: string) => new RegExp(`^ +at .*/src/${file.replace('.', '\\.')}:\\d+:\\d+\\)?$`, 'm');

let github: FakeGitHub;
useFakeGitHub((server) => (github = server));
const { baseline, worse } = regressionRuns();

describe('source maps', () => {
  it('the CLI: an internal error prints its stack at src/ files and lines; bad input one line', async () => {
    const policy = writeFile('policy.yml', STRICT_POLICY);
    const html = join(tempDir(), 'report.html');
    const gate = (candidate: string) =>
      runProcess(process.execPath, [...HARDENED, 'dist/cli.js', ...gateArgs(policy, candidate, baseline, { html })]);
    const crashed = await gate(worse);
    expect(crashed.code).toBe(2);
    expect(crashed.stderr).toMatch(/^evalgate: internal error: EvalError: Code generation from strings disallowed/);
    expect(crashed.stderr).toMatch(srcFrame('report/vega-charts.ts'));
    expect(crashed.stderr).toMatch(srcFrame('cli/commands/gate.ts'));
    expect(crashed.stderr).not.toMatch(/cli-program\.js:\d/); // every frame mapped

    const missing = join(tempDir(), 'missing.jsonl');
    expect(await gate(missing)).toMatchObject({ code: 2, stderr: `evalgate: ${missing}: no such file\n` });
  });

  it('the action: an unexpected error fails the step with its message and logs its stack at src/ files and lines; bad input one line', async () => {
    const policy = writeFile('policy.yml', STRICT_POLICY);
    const env = { NODE_OPTIONS: HARDENED.join(' ') };
    const crashed = await runAction(github, { inputs: { policy, candidate: worse, baseline, 'policy-source': 'head' }, env });
    expect(crashed.code).toBe(1);
    expect(crashed.stdout).toMatch(/^::error::Code generation from strings disallowed for this context$/m);
    expect(crashed.stdout).toMatch(srcFrame('report/vega-charts.ts'));
    expect(crashed.stdout).toMatch(srcFrame('action/main.ts'));
    expect(crashed.stdout).not.toMatch(/action-program\.js:\d/);
    expect(crashed.output('verdict')).toBe('error');

    const missing = join(tempDir(), 'missing.jsonl');
    const bad = await runAction(github, { inputs: { policy, candidate: missing, baseline, 'policy-source': 'head' }, env });
    expect(bad.code).toBe(1);
    expect(bad.stdout).toMatch(new RegExp(`^::error::${missing.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: no such file$`, 'm'));
    expect(bad.stdout).not.toMatch(/^ +at /m);

    // Bad use of the action's inputs is bad input too.
    const misused = await runAction(github, { inputs: { policy, candidate: worse, baseline, 'fail-on': 'sometimes' }, env });
    expect(misused.code).toBe(1);
    expect(misused.stdout).toMatch(/^::error::Input "fail-on" must be one of fail, warn, never; got "sometimes"$/m);
    expect(misused.stdout).not.toMatch(/^ +at /m);
  });
});
