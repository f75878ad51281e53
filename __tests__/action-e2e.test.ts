import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { GateReport } from '../src/report/json.js';
import {
  ACTION_NODE,
  BASE_SHA,
  HEAD_SHA,
  runAction as runActionOn,
  TOKEN,
  writeFile,
  type ActionRun,
  useFakeGitHub,
  regressionRuns,
  STRICT_POLICY,
} from './helpers/action.js';
import { startFakeCache, type FakeCache } from './helpers/cache-server.js';
import { type FakeGitHub } from './helpers/github-server.js';
import { expectInertMarkdown, hostileRuns } from './helpers/hostile.js';
import { writeSuite } from './helpers/evalgate.js';
import { closedPortUrl } from './helpers/openai-server.js';
import { tempDir, writeLines } from './helpers/records.js';

/*
 * The real bundle (dist/index.js) in a child process, with the environment the Actions runner sets,
 * against a local stand-in for the GitHub REST API (helpers/action.ts): what only the bundle shows
 * (its Node, the log's masking, what the programs it starts inherit, @actions/core reading the inputs,
 * the Actions cache) and the security tests (a pull request loosening its gate, a fork's token,
 * hostile names, a forged posted report). The decisions are tested in-process: action.test.ts.
 */

let github: FakeGitHub;
useFakeGitHub((server) => (github = server));

const { baselineRecords, baseline, worse } = regressionRuns();
const baselineCut = () => writeLines('partial.jsonl', baselineRecords.slice(0, 290));
const strictPolicy = STRICT_POLICY;
const loosePolicy = strictPolicy.replace('max_regression: 0.02', 'max_regression: 0.5');

const runAction = (run: ActionRun) => runActionOn(github, run);

describe('the action on a pull request', () => {
  it('reads the policy at the base commit, so a pull request cannot loosen its own gate', async () => {
    github.files.set(`${BASE_SHA}:policies/support.yml`, strictPolicy);
    // The checked-out (head) copy loosens the budget; the base's strict one decides.
    const checkout = tempDir();
    mkdirSync(join(checkout, 'policies'));
    writeFileSync(join(checkout, 'policies/support.yml'), loosePolicy);
    const result = await runAction({ inputs: { policy: 'policies/support.yml', candidate: worse, baseline }, cwd: checkout });
    expect(result.code).toBe(1);
    const head = await runAction({
      inputs: { policy: 'policies/support.yml', candidate: worse, baseline, 'policy-source': 'head' },
      cwd: checkout,
    });
    expect(head.code).toBe(0);
    expect(result.summary).toContain(`at the base commit ${BASE_SHA.slice(0, 7)}`);
    const report = JSON.parse(readFileSync(result.output('report')!, 'utf8')) as GateReport;
    expect(report.github?.pullRequest).toEqual({ number: 7, baseSha: BASE_SHA, headSha: HEAD_SHA });
    expect(report.checks[0].threshold).toBe('regression <= 0.02');
    // However the path is written, it is the same file of the repository.
    for (const written of [join(checkout, 'policies/support.yml'), './policies/../policies/support.yml']) {
      const again = await runAction({ inputs: { policy: written, candidate: worse, baseline }, cwd: checkout });
      expect([again.code, again.summary.includes(`at the base commit ${BASE_SHA.slice(0, 7)}`)]).toEqual([1, true]);
    }
    // Without a token the base cannot be read: an error, not the pull request's own copy.
    const tokenless = await runAction({
      inputs: { policy: 'policies/support.yml', candidate: worse, baseline, 'github-token': '' },
      cwd: checkout,
    });
    expect(tokenless.code).toBe(1);
    expect(tokenless.stdout).toContain(
      '::error::Reading the policy at the base commit needs the input github-token (or set policy-source: head).',
    );
  });

  it('refuses a policy path through a symbolic link in the repository (a pull request may plant one), to a folder or to a file', async () => {
    github.files.set(`${BASE_SHA}:policies/support.yml`, strictPolicy);
    const repo = tempDir();
    mkdirSync(join(repo, 'policies'));
    execFileSync('git', ['init', '-q', repo]);
    writeFileSync(join(repo, 'policies/support.yml'), loosePolicy);
    symlinkSync('policies', join(repo, 'config'));
    symlinkSync('policies/support.yml', join(repo, 'support.yml'));
    for (const policy of ['config/support.yml', 'support.yml', join(repo, 'config/support.yml')]) {
      const result = await runAction({ inputs: { policy, candidate: worse, baseline }, cwd: repo });
      expect([policy, result.code, result.output('verdict')]).toEqual([policy, 1, 'error']);
      expect(result.stdout).toContain(`::error::The policy ${policy} goes through a symbolic link in the repository`);
    }
  });

  it('refuses a policy the base does not have: a pull request cannot bring its own, unless allow-new-policy says so', async () => {
    const checkout = tempDir();
    mkdirSync(join(checkout, 'policies'));
    writeFileSync(join(checkout, 'policies/support.yml'), loosePolicy);
    const inputs = { policy: 'policies/support.yml', candidate: worse, baseline };
    const refused = await runAction({ inputs, cwd: checkout });
    expect([refused.code, refused.output('verdict')]).toEqual([1, 'error']);
    expect(refused.stdout).toContain(
      `::error::The policy policies/support.yml does not exist at the base commit ${BASE_SHA.slice(0, 7)}: a pull request cannot bring its own policy.`,
    );
    const allowed = await runAction({ inputs: { ...inputs, 'allow-new-policy': 'true' }, cwd: checkout });
    expect([allowed.code, allowed.output('verdict')]).toEqual([0, 'pass']);
    expect(allowed.stdout).toContain('::warning::policies/support.yml does not exist at the base commit yet (allow-new-policy)');
  });

  it('waives a failure only by the label the pull request has now (asked of the API), not by the event', async () => {
    const inputs = {
      policy: writeFile('p.yml', strictPolicy),
      candidate: worse,
      baseline,
      'policy-source': 'head',
      'waiver-label': 'accept-regression',
    };
    // The event lists the label, but it was removed since: not waived.
    github.pulls.set(7, { head: { sha: HEAD_SHA }, labels: [] });
    const removed = await runAction({ inputs, labels: ['accept-regression'] });
    expect([removed.code, removed.output('verdict')]).toEqual([1, 'fail']);
    // Added after the event fired: waived.
    github.pulls.set(7, { head: { sha: HEAD_SHA }, labels: ['accept-regression'] });
    const added = await runAction({ inputs, labels: [] });
    expect([added.code, added.output('verdict')]).toEqual([0, 'fail']);
    expect(added.stdout).toContain('::warning::evalgate: fail, waived by the label accept-regression');
  });

  it("still fails the step on a regression when a fork's token cannot comment (403)", async () => {
    github.readOnly = true;
    const result = await runAction({
      inputs: { policy: writeFile('p.yml', strictPolicy), candidate: worse, baseline, 'policy-source': 'head' },
    });
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('::warning::The token cannot comment on this pull request');
    expect(result.summary).toContain('evalgate: fail');
    expect(github.comments).toHaveLength(0);
  });

  it('never prints the token or the OpenAI key (it asks the runner to mask both)', async () => {
    const key = 'sk-e2e-masked-key';
    const result = await runAction({
      inputs: { policy: writeFile('p.yml', strictPolicy), candidate: worse, baseline, 'policy-source': 'head' },
      env: { OPENAI_API_KEY: key },
    });
    // The runner's context (src/action/context.ts) hands the key to the port: only the bundle shows it.
    expect(result.stdout).toContain(`::add-mask::${TOKEN}`);
    expect(result.stdout).toContain(`::add-mask::${key}`);
    const printed = result.stdout.split('\n').filter((line) => !line.startsWith('::add-mask::'));
    for (const secret of [TOKEN, key]) {
      expect(printed.join('\n') + result.stderr + result.summary).not.toContain(secret);
      expect(github.comments.map((comment) => comment.body).join('')).not.toContain(secret);
    }
  });
});

describe('the action outside pull requests and on bad input', () => {
  it('gates a push or a manual run into the job summary, without a comment', async () => {
    for (const event of ['push', 'workflow_dispatch'] as const) {
      const result = await runAction({ event, inputs: { policy: writeFile('p.yml', loosePolicy), candidate: worse, baseline } });
      expect(result.code).toBe(0);
      expect(result.summary).toContain('## ✅ evalgate: pass');
      expect(result.stdout).toContain(`on Node ${execFileSync(ACTION_NODE, ['--version'], { encoding: 'utf8' }).trim()}`);
    }
    expect(github.comments).toHaveLength(0);
  });

  it("fails the step within seconds when the suite run's model cannot answer (a closed port), quoting the connection error", async () => {
    const instances = Array.from({ length: 10 }, (_, i) => ({ id: `q${i}`, input: `closed question ${i}`, references: ['refund'] }));
    const inputs = { policy: writeFile('p.yml', loosePolicy), 'policy-source': 'head', suite: writeSuite(tempDir(), instances) };
    const started = performance.now();
    const result = await runAction({
      inputs: { ...inputs, model: 'openai:m', 'base-url': await closedPortUrl() },
      env: { OPENAI_API_KEY: 'sk-test' },
    });
    expect((performance.now() - started) / 1000).toBeLessThan(15);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(
      /::error::the model "openai:http:\/\/127\.0\.0\.1:\d+\/v1:m" cannot answer: its first call failed \(connection failed: connect ECONNREFUSED/,
    );
    expect(result.output('verdict')).toBe('error');
  });

  it("runs the team's eval-command, imports its output and gates it; a failing command fails the step", async () => {
    const workspace = tempDir();
    const fixture = join(process.cwd(), '__tests__/fixtures/promptfoo/eval-output.json');
    const policy = writeFile('p.yml', 'version: 1\nname: imported\nchecks:\n  - metric: accuracy\n    min: 0.9\n');
    const inputs = {
      policy,
      candidate: 'eval/out.json',
      import: 'promptfoo',
      'eval-command': `mkdir -p eval && echo evaluating && cp ${fixture} eval/out.json`,
    };
    const result = await runAction({ event: 'push', inputs, cwd: workspace });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('evaluating');
    expect(result.summary).toContain('## ✅ evalgate: pass');
    expect(result.summary).toContain('(12 records, 12 instances)');
    // With RUNNER_TEMP empty the converted records go to the system's temporary folder, never the checkout.
    const noTemp = await runAction({ event: 'push', inputs, cwd: workspace, env: { RUNNER_TEMP: '' } });
    expect(noTemp.code).toBe(0);
    expect(readdirSync(workspace).filter((name) => name.startsWith('evalgate-'))).toEqual([]);

    const failing = await runAction({ event: 'push', inputs: { ...inputs, 'eval-command': 'echo broken >&2; exit 3' }, cwd: workspace });
    expect(failing.code).toBe(1);
    expect(failing.stdout).toContain('::error::eval-command failed (exit code 3): echo broken >&2; exit 3');
    expect(failing.output('verdict')).toBe('error');

    // The command sees what a run: step sees, not the token or the runtime's credentials.
    const snooping = await runAction({
      event: 'push',
      inputs: { ...inputs, 'eval-command': `${inputs['eval-command']} && env > eval/env.txt` },
      cwd: workspace,
      env: { ACTIONS_RUNTIME_TOKEN: 'runtime-token-xyz', OPENAI_API_KEY: 'sk-passed-on' },
    });
    expect(snooping.code).toBe(0);
    const seen = readFileSync(join(workspace, 'eval/env.txt'), 'utf8');
    expect(seen).not.toContain(TOKEN);
    expect(seen).not.toContain('runtime-token-xyz');
    expect(seen).toContain('OPENAI_API_KEY=sk-passed-on');
  });

  it("gives the programs it starts none of the runner's files: a command left running cannot set the verdict", async () => {
    const workspace = tempDir();
    const runnerFiles = ['GITHUB_OUTPUT', 'GITHUB_ENV', 'GITHUB_PATH', 'GITHUB_STEP_SUMMARY', 'GITHUB_STATE'];
    // Left running in the background: waits (up to 10 s) for the action's outputs, then appends its own verdict.
    const lateVerdict =
      '(if [ -n "$GITHUB_OUTPUT" ]; then for i in $(seq 200); do grep -q "^verdict<<" "$GITHUB_OUTPUT" && break; sleep 0.05; done; ' +
      'echo verdict=pass >> "$GITHUB_OUTPUT"; fi) &';
    const result = await runAction({
      inputs: {
        policy: writeFile('p.yml', strictPolicy),
        candidate: worse,
        baseline,
        'policy-source': 'head',
        'eval-command': `${lateVerdict} env > eval-env.txt`,
      },
      cwd: workspace,
    });
    expect([result.code, result.output('verdict')]).toEqual([1, 'fail']);
    const seenBy = (file: string) =>
      readFileSync(join(workspace, file), 'utf8')
        .split('\n')
        .map((line) => line.split('=')[0]);
    expect(seenBy('eval-env.txt').filter((name) => runnerFiles.includes(name))).toEqual([]);
    expect(seenBy('eval-env.txt')).toContain('GITHUB_REPOSITORY'); // what a run: step sees stays

    // A model command (a suite run) sees none of them either.
    const suite = await runAction({
      event: 'push',
      inputs: {
        policy: writeFile('p.yml', 'version: 1\nname: suite\nchecks:\n  - metric: accuracy\n    min: 0.1\n'),
        suite: join(process.cwd(), 'examples/billing/suite/suite.yml'),
        model: `command:env > model-env.txt; exec node ${join(process.cwd(), 'examples/billing/suite/toy-model.mjs')}`,
      },
      cwd: workspace,
    });
    expect(suite.code).toBe(0);
    expect(seenBy('model-env.txt').filter((name) => runnerFiles.includes(name))).toEqual([]);
  });

  it('reads boolean inputs as GitHub does (True, FALSE), and refuses anything else naming the input', async () => {
    const inputs = { policy: writeFile('p.yml', loosePolicy), candidate: worse, baseline, 'policy-source': 'head' };
    const quiet = await runAction({ inputs: { ...inputs, comment: 'FALSE', 'require-baseline': 'False' } });
    expect(quiet.code).toBe(0);
    expect(github.comments).toHaveLength(0);
    const wrong = await runAction({ inputs: { ...inputs, comment: 'yes please' } });
    expect(wrong.code).toBe(1);
    expect(wrong.stdout).toMatch(/::error::Input does not meet YAML 1\.2 "Core Schema" specification: comment/);
  });

  it('writes annotations as the runner reads them: on the file, line and column, ":" and "%" escaped', async () => {
    const checkout = tempDir();
    mkdirSync(join(checkout, 'policies'));
    writeFileSync(join(checkout, 'policies/p.yml'), 'version: 1\nname: p\nchecks:\n  - metric: accuracy\n    mni: 0.9\n');
    const result = await runAction({ inputs: { policy: 'policies/p.yml', candidate: worse, 'policy-source': 'head' }, cwd: checkout });
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(
      /^::error title=evalgate%3A bad input,file=policies\/p\.yml,line=5,col=5::checks\[0\]\.mni: unknown key/m,
    );
    const coverage = writeFile('p.yml', loosePolicy.replace('  resamples: 200\n', '  resamples: 200\n  coverage: { severity: block }\n'));
    const partial = await runAction({
      inputs: { policy: coverage, candidate: baselineCut(), baseline, 'policy-source': 'head', comment: 'false' },
    });
    expect(partial.stdout).toContain(
      "::error title=evalgate%3A coverage::the candidate answered 290 of the baseline's 300 instances (96.7%25",
    );
  });

  it('fails when the required policy input is missing', async () => {
    const result = await runAction({ inputs: {} });
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('::error::Input required and not supplied: policy');
  });
});

describe('the baseline in the Actions cache', () => {
  let cache: FakeCache;
  beforeAll(async () => {
    cache = await startFakeCache();
  });
  afterAll(async () => {
    await cache.close();
  });
  const cacheEnv = () => ({ ACTIONS_CACHE_SERVICE_V2: 'true', ACTIONS_RESULTS_URL: cache.url, ACTIONS_RUNTIME_TOKEN: 'runtime-token' });

  it('is not saved from a failing push', async () => {
    const policy = writeFile('p.yml', 'version: 1\nname: floor\nchecks:\n  - metric: accuracy\n    min: 0.9\n');
    const push = await runAction({
      event: 'push',
      sha: 'f'.repeat(40),
      inputs: { policy, candidate: worse },
      cwd: tempDir(),
      env: cacheEnv(),
    });
    expect(push.code).toBe(1);
    expect(push.stdout).toContain('::warning::Not saved as the baseline: the verdict is fail.');
    expect(cache.keys().some((key) => key.startsWith('evalgate-baseline-floor-'))).toBe(false);
  });

  it('warns, and makes the regression checks inconclusive, when the cache is empty or unavailable', async () => {
    const policy = writeFile('p.yml', strictPolicy.replace('support', 'nothing-saved'));
    const empty = await runAction({ inputs: { policy, candidate: worse, 'policy-source': 'head' }, cwd: tempDir(), env: cacheEnv() });
    expect(empty.code).toBe(0);
    expect(empty.stdout).toContain('::warning::No baseline for policy nothing-saved on main in the Actions cache');
    const unavailable = await runAction({ inputs: { policy, candidate: worse, 'policy-source': 'head' }, cwd: tempDir() });
    expect(unavailable.stdout).toContain('::warning::The Actions cache is not available here');
    expect(unavailable.summary).toContain('no baseline: regression budgets were inconclusive');
  });
});

describe('what changed instance by instance, in the comment', () => {
  const hostilePolicy = 'version: 1\nname: t\nsettings:\n  resamples: 100\nchecks:\n  - metric: accuracy\n    min: 0.9\n';

  it('keeps hostile inputs and predictions inert in the comment and the job summary', async () => {
    const { candidate, baseline: hostileBaseline } = hostileRuns();
    const result = await runAction({
      inputs: { policy: writeFile('p.yml', hostilePolicy), candidate, baseline: hostileBaseline, 'policy-source': 'head' },
    });
    expect(result.code).toBe(1);
    const [marker, ...rest] = github.comments[0].body.split('\n');
    expect(marker).toMatch(/^<!-- evalgate:path=\S+ policy=t -->$/);
    const body = rest.join('\n');
    expect(body).toContain('What changed, instance by instance: 15 right → wrong, 15 wrong → right of 30 examples');
    expect(body).toMatch(/prediction 3$/m);
    expectInertMarkdown(body);
    expectInertMarkdown(result.summary);
  });

  it('does not repeat the changes a posted report claims, refuses forged ones, and reads a report that has none', async () => {
    const { candidate, baseline: hostileBaseline } = hostileRuns();
    github.readOnly = true;
    const first = await runAction({
      inputs: {
        policy: writeFile('p.yml', hostilePolicy),
        candidate,
        baseline: hostileBaseline,
        'policy-source': 'head',
        comment: 'false',
      },
    });
    github.readOnly = false;
    github.pulls.set(7, { head: { sha: HEAD_SHA }, base: { sha: BASE_SHA, ref: 'main' } });
    // The workflow_run job gates the report's numbers again under the policy at the base.
    github.files.set(`${BASE_SHA}:policies/p.yml`, hostilePolicy);
    const checkout = tempDir();
    mkdirSync(join(checkout, 'policies'));
    writeFileSync(join(checkout, 'policies/p.yml'), hostilePolicy);
    const original = JSON.parse(readFileSync(first.output('report')!, 'utf8')) as GateReport;
    const post = (report: object) =>
      runAction({
        event: 'workflow_run',
        workflowRun: { headSha: HEAD_SHA, pullRequests: [7] },
        inputs: { policy: 'policies/p.yml', report: writeFile('report.json', JSON.stringify(report)), 'fail-on': 'never' },
        cwd: checkout,
      });
    const posted = await post(original);
    expect(posted.code).toBe(0);
    const body = github.comments[0].body.split('\n').slice(1).join('\n');
    // Only the numbers are gated again: the instance changes a report lists stay its own run's claim.
    expect(body).toContain('unverified report');
    expect(body).not.toContain('What changed');
    expectInertMarkdown(body);

    // A listed flip must be a flip, and counts must be counts.
    const forged = structuredClone(original);
    forged.changes!.scenarios[0].broken[0].candidate.correct = 1;
    expect((await post(forged)).stdout).toContain('changes: the listed flips do not agree with the counts and rightAt');
    const markup = structuredClone(original) as unknown as { changes: { scenarios: Array<{ variants: Array<{ compared: unknown }> }> } };
    markup.changes.scenarios[0].variants[0].compared = '<img src=x>';
    expect((await post(markup)).stdout).toContain('not an evalgate report: changes.scenarios.0.variants.0.compared');
    // A report written before the changes existed is read as it is.
    const { changes: _changes, ...older } = original;
    expect((await post(older)).code).toBe(0);
    expect(github.comments).toHaveLength(1);
    expect(github.comments[0].body).not.toContain('What changed');
  });
});
