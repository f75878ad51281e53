import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
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
import { countFlips, totalFlips } from './helpers/flips.js';
import { type FakeGitHub } from './helpers/github-server.js';
import { expectInertMarkdown, hostileRuns } from './helpers/hostile.js';
import { header as inspectHeader, sample as inspectSample, writeEvalLog } from './helpers/inspect-logs.js';
import { NAMED_POLICY, namedRuns } from './helpers/named-groups.js';
import { record, tempDir, writeLines } from './helpers/records.js';

/*
 * The real bundle (dist/index.js) in a child process, with the environment the Actions runner sets,
 * against a local stand-in for the GitHub REST API (helpers/action.ts).
 */

let github: FakeGitHub;
useFakeGitHub((server) => (github = server));

const { worseRecords, baseline, worse } = regressionRuns();
const strictPolicy = STRICT_POLICY;
const loosePolicy = strictPolicy.replace('max_regression: 0.02', 'max_regression: 0.5');

const runAction = (run: ActionRun) => runActionOn(github, run);

describe('the action on a pull request', () => {
  it('creates one comment, leaves it alone when nothing changed, and updates it when the result changes', async () => {
    const policy = writeFile('policy.yml', loosePolicy);
    const first = await runAction({ inputs: { policy, candidate: worse, baseline, 'policy-source': 'head' } });
    expect(first.code).toBe(0);
    expect(first.output('verdict')).toBe('pass');
    // The HTML report, under RUNNER_TEMP, its path an output.
    expect(first.output('html-report')).toBe(join(first.runnerTemp, 'evalgate-report.html'));
    expect(readFileSync(join(first.runnerTemp, 'evalgate-report.html'), 'utf8')).toContain('Verdict: PASS');
    expect(github.comments).toHaveLength(1);
    expect(github.comments[0].body.startsWith(`<!-- evalgate:path=${policy} policy=support -->\n## ✅ evalgate: pass`)).toBe(true);
    expect(first.output('comment-url')).toBe(github.comments[0].html_url);

    const requestsBefore = github.requests.length;
    const second = await runAction({ inputs: { policy, candidate: worse, baseline, 'policy-source': 'head' } });
    expect(second.stdout).toContain('Comment unchanged');
    expect(github.requests.slice(requestsBefore).some((request) => request.startsWith('PATCH') || request.startsWith('POST'))).toBe(false);

    writeFileSync(policy, strictPolicy);
    const third = await runAction({ inputs: { policy, candidate: worse, baseline, 'policy-source': 'head' } });
    expect(third.code).toBe(1);
    expect(github.comments).toHaveLength(1);
    expect(github.comments[0].body.startsWith(`<!-- evalgate:path=${policy} policy=support -->\n## ❌ evalgate: fail`)).toBe(true);
    expect(third.stdout).toContain('::error title=evalgate%3A accuracy (overall)::worse than the baseline by 0.05');
  });

  it('finds its comment on page 2 behind 150 others', async () => {
    for (let i = 0; i < 150; i++)
      github.comments.push({
        id: i + 1,
        body: `comment ${i}`,
        user: { login: `user${i % 7}`, type: 'User' },
        html_url: `https://github.com/c/${i}`,
      });
    // A person's comment that starts with the marker is not ours; a bot's is (here a GitHub App's:
    // its installation token cannot ask who it is, so the comment's author type decides). Both carry the
    // marker earlier versions wrote (no path), which a comment is found by when none has the current one.
    github.comments.push({
      id: 500,
      body: '<!-- evalgate:policy=support --> quoted',
      user: { login: 'someone', type: 'User' },
      html_url: 'https://github.com/c/500',
    });
    github.comments.push({
      id: 501,
      body: '<!-- evalgate:policy=support -->\nold report',
      user: { login: 'my-app[bot]', type: 'Bot' },
      html_url: 'https://github.com/c/501',
    });
    const policy = writeFile('policy.yml', loosePolicy);
    const result = await runAction({ inputs: { policy, candidate: worse, baseline, 'policy-source': 'head' } });
    expect(result.code).toBe(0);
    expect(github.comments).toHaveLength(152);
    expect(github.comments.find((comment) => comment.id === 501)?.body).toMatch(/evalgate: pass/);
    expect(github.comments.find((comment) => comment.id === 500)?.body).toBe('<!-- evalgate:policy=support --> quoted');
    expect(github.requests.filter((request) => request.startsWith('GET /repos/octo/models/issues/7/comments'))).toHaveLength(2);
  });

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

  it('fails the step on the verdicts fail-on names', async () => {
    const warnPolicy = writeFile('p.yml', strictPolicy.replace('max_regression: 0.02', 'max_regression: 0.02\n    severity: warn'));
    const common = { candidate: worse, baseline, 'policy-source': 'head', comment: 'false' };
    expect((await runAction({ inputs: { policy: warnPolicy, ...common } })).code).toBe(0);
    const strictOnWarn = await runAction({ inputs: { policy: warnPolicy, ...common, 'fail-on': 'warn' } });
    expect(strictOnWarn.code).toBe(1);
    expect(strictOnWarn.output('verdict')).toBe('warn');
    expect((await runAction({ inputs: { policy: writeFile('p.yml', strictPolicy), ...common, 'fail-on': 'never' } })).code).toBe(0);
    expect((await runAction({ inputs: { policy: warnPolicy, ...common, 'fail-on': 'sometimes' } })).stdout).toContain(
      '::error::Input "fail-on" must be one of fail, warn, never; got "sometimes"',
    );
  });

  it('fails the step on a candidate that misses baseline instances when the policy blocks on coverage', async () => {
    const policy = writeFile('p.yml', loosePolicy.replace('  resamples: 200\n', '  resamples: 200\n  coverage: { severity: block }\n'));
    const partial = writeLines('partial.jsonl', worseRecords.slice(0, 290));
    const result = await runAction({ inputs: { policy, candidate: partial, baseline, 'policy-source': 'head', comment: 'false' } });
    expect(result.code).toBe(1);
    expect(result.output('verdict')).toBe('fail');
    expect(result.output('failed-checks')).toBe('1');
    expect(result.stdout).toContain(
      "::error title=evalgate%3A coverage::the candidate answered 290 of the baseline's 300 instances (96.7%25, the policy asks at least 100%25); missing or failed: billing/290,",
    ); // % is escaped in workflow commands
    expect(result.summary).toContain('- **coverage** · ❌ fail: the candidate answered 290');
  });

  it('reports a missing baseline and still enforces absolute bounds', async () => {
    const policy = writeFile('p.yml', 'version: 1\nname: abs\nchecks:\n  - metric: accuracy\n    min: 0.8\n    max_regression: 0.01\n');
    const result = await runAction({ inputs: { policy, candidate: worse, 'policy-source': 'head' } });
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('::warning::No baseline: regression checks are skipped');
    expect(result.summary).toContain('no baseline: regression budgets were skipped');
  });

  it('never prints the token (it asks the runner to mask it)', async () => {
    const result = await runAction({
      inputs: { policy: writeFile('p.yml', strictPolicy), candidate: worse, baseline, 'policy-source': 'head' },
    });
    expect(result.stdout).toContain(`::add-mask::${TOKEN}`);
    const printed = result.stdout.split('\n').filter((line) => !line.startsWith('::add-mask::'));
    expect(printed.join('\n') + result.stderr + result.summary).not.toContain(TOKEN);
    expect(github.comments.map((comment) => comment.body).join('')).not.toContain(TOKEN);
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

  it('fails the step with the file, line and field of bad input', async () => {
    const broken = writeLines('records.jsonl', [record({ id: '1' }), { scenario: 's', id: '2', correct: 'yes' }]);
    const result = await runAction({ inputs: { policy: writeFile('p.yml', loosePolicy), candidate: broken, 'policy-source': 'head' } });
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(`::error::${broken}:2: "correct" must be a number in [0, 1], got "yes"`);
    expect(result.output('verdict')).toBe('error');
    const typo = writeFile('p.yml', 'version: 1\nname: x\nchecks:\n  - metric: accuracy\n    mni: 0.5\n');
    const policyError = await runAction({ inputs: { policy: typo, candidate: worse, 'policy-source': 'head' } });
    expect(policyError.stdout).toContain(`${typo}:5:5 checks[0].mni: unknown key (did you mean min?)`);
  });

  it('runs the suite itself when given suite and model instead of a candidate', async () => {
    const workspace = tempDir();
    const policy = writeFile(
      'p.yml',
      'version: 1\nname: suite-run\nchecks:\n  - metric: accuracy\n    min: 0.3\n  - metric: accuracy_robust\n    min: 0.2\n',
    );
    const inputs = {
      policy,
      suite: join(process.cwd(), 'examples/billing/suite/suite.yml'),
      model: `command:node ${join(process.cwd(), 'examples/billing/suite/toy-model.mjs')}`,
    };
    const result = await runAction({ event: 'push', inputs, cwd: workspace });
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/evalgate run: \d+ records \(0 failed calls, 0 retries/);
    const records = readFileSync(result.output('records')!, 'utf8').trim().split('\n');
    // Progress in the log: a line at every 10%, with the rate and the time left.
    const progress = result.stdout
      .split('\n')
      .filter((line) => /^evalgate: \d+\/\d+ \(\d+%\), [\d.]+ per second, about \d+ s left$/.test(line));
    expect(progress).toHaveLength(10);
    expect(progress[9]).toMatch(new RegExp(`^evalgate: ${records.length}/${records.length} \\(100%\\)`));
    expect(records.length).toBeGreaterThan(240);
    expect(result.summary).toContain('## ✅ evalgate: pass');
    // The completions are kept under RUNNER_TEMP (and in the Actions cache: action-cache.test.ts), never in the checkout.
    expect(existsSync(join(workspace, '.evalgate'))).toBe(false);
    expect(readdirSync(join(result.runnerTemp, 'evalgate-completions')).length).toBeGreaterThan(0);
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

  it('imports Inspect AI logs (import: inspect), and warns in an annotation when a run did not finish', async () => {
    const cancelled = writeEvalLog(join(tempDir(), 'cancelled.eval'), [
      ['samples/1_epoch_1.json', JSON.stringify(inspectSample(1, 1, { match: 'C' }))],
      ['samples/2_epoch_1.json', JSON.stringify(inspectSample(2, 1, { match: 'C' }))],
      ['header.json', JSON.stringify(inspectHeader('popularity', { status: 'cancelled', sampleIds: [1, 2, 3] }))],
    ]);
    const policy = writeFile('p.yml', 'version: 1\nname: inspect\nchecks:\n  - metric: accuracy\n    min: 0.9\n');
    const result = await runAction({ event: 'push', inputs: { policy, candidate: cancelled, import: 'inspect' } });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(
      `::warning::evalgate import: ${cancelled}: the run did not finish (status "cancelled"): 1 of 3 samples are missing: 3;`,
    );
    expect(result.summary).toContain('(2 records, 2 instances)');
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

  it('is saved on a push to the default branch and gates the next pull request', async () => {
    const workspace = tempDir();
    const policy = writeFile('p.yml', strictPolicy);
    const push = await runAction({
      event: 'push',
      sha: BASE_SHA,
      inputs: { policy, candidate: baseline },
      cwd: workspace,
      env: cacheEnv(),
    });
    expect(push.code).toBe(0);
    // A readable part, a hash of the policy file, name, id and branch, the commit.
    expect(cache.keys()).toEqual([expect.stringMatching(new RegExp(`^evalgate-baseline-support-[0-9a-f]{16}-${BASE_SHA}$`))]);

    const pull = await runAction({ inputs: { policy, candidate: worse, 'policy-source': 'head' }, cwd: tempDir(), env: cacheEnv() });
    expect(pull.code).toBe(1);
    const report = JSON.parse(readFileSync(pull.output('report')!, 'utf8')) as GateReport;
    expect(report.baseline?.commit).toBe(BASE_SHA);
    expect(report.checks[0].comparison?.shared).toBe(300);
    expect(pull.summary).toContain(`from commit \`${BASE_SHA.slice(0, 7)}\``);

    // A pull request on a newer base without its own entry gets the newest baseline, with a warning.
    const newer = await runAction({
      baseSha: 'd'.repeat(40),
      inputs: { policy, candidate: worse, 'policy-source': 'head' },
      cwd: tempDir(),
      env: cacheEnv(),
    });
    expect(newer.stdout).toContain(`::warning::The baseline comes from commit ${BASE_SHA.slice(0, 7)}, not from ${'d'.repeat(7)}.`);
    expect(newer.code).toBe(1);

    // A manual run restores it too.
    const manual = await runAction({
      event: 'workflow_dispatch',
      sha: BASE_SHA,
      inputs: { policy, candidate: worse },
      cwd: tempDir(),
      env: cacheEnv(),
    });
    expect(manual.code).toBe(1);
    expect(manual.output('verdict')).toBe('fail');

    // Another policy whose name starts the same never gets this baseline.
    const other = await runAction({
      inputs: {
        policy: writeFile('p.yml', strictPolicy.replace('name: support', 'name: support-v2')),
        candidate: worse,
        'policy-source': 'head',
      },
      cwd: tempDir(),
      env: cacheEnv(),
    });
    expect(other.stdout).toContain('::warning::No baseline for policy support-v2 on main in the Actions cache');
  });

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

  it('warns and skips regression checks when the cache is empty or unavailable', async () => {
    const policy = writeFile('p.yml', strictPolicy.replace('support', 'nothing-saved'));
    const empty = await runAction({ inputs: { policy, candidate: worse, 'policy-source': 'head' }, cwd: tempDir(), env: cacheEnv() });
    expect(empty.code).toBe(0);
    expect(empty.stdout).toContain('::warning::No baseline for policy nothing-saved on main in the Actions cache');
    const unavailable = await runAction({ inputs: { policy, candidate: worse, 'policy-source': 'head' }, cwd: tempDir() });
    expect(unavailable.stdout).toContain('::warning::The Actions cache is not available here');
    expect(unavailable.summary).toContain('no baseline: regression budgets were skipped');
  });
});

describe('what changed instance by instance, in the comment', () => {
  const example = (file: string) => join(process.cwd(), 'examples/billing', file);
  const hostilePolicy = 'version: 1\nname: t\nsettings:\n  resamples: 100\nchecks:\n  - metric: accuracy\n    min: 0.9\n';

  it("shows the demo's instance changes in both directions in the comment, the job summary and the JSON report", async () => {
    const [candidate, baselineFile] = [example('candidate-a.jsonl'), example('baseline.jsonl')];
    const result = await runAction({
      inputs: { policy: join(process.cwd(), 'policies/customer-support.yml'), candidate, baseline: baselineFile, 'policy-source': 'head' },
    });
    expect(result.code).toBe(1); // candidate A is blocked under customer-support
    const total = totalFlips(countFlips(candidate, baselineFile));
    expect([total.rightToWrong > 0, total.wrongToRight > 0]).toEqual([true, true]);
    const summary = `<details><summary>What changed, instance by instance: ${total.rightToWrong} right → wrong, ${total.wrongToRight} wrong → right of ${total.compared} examples both runs answered</summary>`;
    expect(github.comments).toHaveLength(1);
    const body = github.comments[0].body;
    expect(body).toContain(summary);
    for (const direction of ['right → wrong', 'wrong → right']) {
      expect(body).toMatch(new RegExp(`\\*\\*billing-exceptions\\*\\* · ${direction}: \\d+, the 5 that changed most\\n\\n- q\\d+`));
    }
    expect(result.summary).toContain(summary);
    const report = JSON.parse(readFileSync(result.output('report')!, 'utf8')) as GateReport;
    const variants = report.changes!.scenarios.flatMap((scope) => scope.variants);
    expect(variants.reduce((sum, v) => sum + v.rightToWrong, 0)).toBe(total.rightToWrong);
    expect(report.changes!.scenarios.every((scope) => scope.broken.length === 5 && scope.fixed.length === 5)).toBe(true);
  });

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

describe('names with separators and a scenario called "overall"', () => {
  it('gate on a pull request: each check in its scope, the group named by its parts, in the comment and the report', async () => {
    const { baseline: named, candidate } = namedRuns();
    const policy = writeFile('policy.yml', NAMED_POLICY);
    const result = await runAction({ inputs: { policy, candidate, baseline: named, 'policy-source': 'head' } });
    expect(result.code).toBe(1);
    expect(result.output('verdict')).toBe('fail');
    const report = JSON.parse(readFileSync(result.output('report')!, 'utf8')) as GateReport;
    expect(report.checks.slice(0, 3).map(({ metric, scopeKind, group, status }) => [metric, scopeKind, group, status])).toEqual([
      ['accuracy', 'pooled', null, 'pass'],
      ['accuracy', 'scenario', null, 'fail'],
      ['group_accuracy:region%3Aeu=a%3Db', 'scenario', { attribute: 'region:eu', value: 'a=b' }, 'fail'],
    ]);
    const comment = github.comments[0].body;
    expect(comment).toContain('- **accuracy** · ❌ fail `accuracy` (scenario overall): below the minimum 0.6\n');
    expect(comment).toContain(
      '- **fairness** · ❌ fail `group_accuracy:region%3Aeu=a%3Db` (scenario overall): worse than the baseline by 0.100',
    );
    expect(comment).toContain(
      '  title "Accuracy per region:eu (scenario overall): candidate (bars) vs baseline (line)"\n  x-axis ["a=b", "c d"]\n',
    );
    // The annotation of each failed check names its scope as the reports do (the runner decodes %3A and %25).
    expect(result.stdout).toContain('::error title=evalgate%3A accuracy (scenario overall)::below the minimum 0.6\n');
    expect(result.stdout).toContain('::error title=evalgate%3A group_accuracy%3Aregion%253Aeu=a%253Db (scenario overall)::worse than');
  });
});
