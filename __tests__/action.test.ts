import { describe, expect, it } from '@jest/globals';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { GateReport } from '../src/report/json.js';
import { writeFile, type ActionRun, useFakeGitHub, regressionRuns, STRICT_POLICY, TOKEN } from './helpers/action.js';
import { runInProcess } from './helpers/action-in-process.js';
import { countFlips, totalFlips } from './helpers/flips.js';
import { type FakeGitHub } from './helpers/github-server.js';
import { header as inspectHeader, sample as inspectSample, writeEvalLog } from './helpers/inspect-logs.js';
import { NAMED_POLICY, namedRuns } from './helpers/named-groups.js';
import { record, tempDir, writeLines } from './helpers/records.js';

/*
 * The action's run() in this process (helpers/action-in-process.ts), against a local stand-in for the
 * GitHub REST API; action-e2e.test.ts runs the bundle.
 */

let github: FakeGitHub;
useFakeGitHub((server) => (github = server));

const { worseRecords, baseline, worse } = regressionRuns();
const strictPolicy = STRICT_POLICY;
const loosePolicy = strictPolicy.replace('max_regression: 0.02', 'max_regression: 0.5');

const runAction = (run: ActionRun) => runInProcess(github, run);

describe('the action on a pull request', () => {
  it('creates one comment, leaves it alone when nothing changed, and updates it when the result changes', async () => {
    const policy = writeFile('policy.yml', loosePolicy);
    const first = await runAction({ inputs: { policy, candidate: worse, baseline, 'policy-source': 'head' } });
    expect(first.failures).toEqual([]);
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
    expect(second.log).toContain('Comment unchanged');
    expect(github.requests.slice(requestsBefore).some((request) => request.startsWith('PATCH') || request.startsWith('POST'))).toBe(false);

    writeFileSync(policy, strictPolicy);
    const third = await runAction({ inputs: { policy, candidate: worse, baseline, 'policy-source': 'head' } });
    expect(third.code).toBe(1);
    expect(github.comments).toHaveLength(1);
    expect(github.comments[0].body.startsWith(`<!-- evalgate:path=${policy} policy=support -->\n## ❌ evalgate: fail`)).toBe(true);
    expect(third.annotations).toContainEqual({
      level: 'error',
      message: expect.stringMatching(/^worse than the baseline by 5(\.\d+)? pts/),
      properties: { title: 'evalgate: accuracy (overall)' },
    });
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

  it('fails the step on the verdicts fail-on names', async () => {
    const warnPolicy = writeFile('p.yml', strictPolicy.replace('max_regression: 0.02', 'max_regression: 0.02\n    severity: warn'));
    const common = { candidate: worse, baseline, 'policy-source': 'head', comment: 'false' };
    expect((await runAction({ inputs: { policy: warnPolicy, ...common } })).code).toBe(0);
    const strictOnWarn = await runAction({ inputs: { policy: warnPolicy, ...common, 'fail-on': 'warn' } });
    expect(strictOnWarn.code).toBe(1);
    expect(strictOnWarn.output('verdict')).toBe('warn');
    expect((await runAction({ inputs: { policy: writeFile('p.yml', strictPolicy), ...common, 'fail-on': 'never' } })).code).toBe(0);
    expect((await runAction({ inputs: { policy: warnPolicy, ...common, 'fail-on': 'sometimes' } })).log).toContain(
      'failed: Input "fail-on" must be one of fail, warn, never; got "sometimes"',
    );
  });

  it('fails the step on a candidate that misses baseline instances when the policy blocks on coverage', async () => {
    const policy = writeFile('p.yml', loosePolicy.replace('  resamples: 200\n', '  resamples: 200\n  coverage: { severity: block }\n'));
    const partial = writeLines('partial.jsonl', worseRecords.slice(0, 290));
    const result = await runAction({ inputs: { policy, candidate: partial, baseline, 'policy-source': 'head', comment: 'false' } });
    expect(result.code).toBe(1);
    expect(result.output('verdict')).toBe('fail');
    expect(result.output('failed-checks')).toBe('1');
    expect(result.annotations).toContainEqual({
      level: 'error',
      message: expect.stringContaining(
        "the candidate answered 290 of the baseline's 300 instances (96.7%, the policy asks at least 100%); missing or failed: billing/290,",
      ),
      properties: { title: 'evalgate: coverage' },
    });
    expect(result.summary).toContain('- ❌ coverage blocks: the candidate answered 290');
  });

  it('reports a missing baseline and still enforces absolute bounds', async () => {
    const policy = writeFile('p.yml', 'version: 1\nname: abs\nchecks:\n  - metric: accuracy\n    min: 0.8\n    max_regression: 0.01\n');
    const result = await runAction({ inputs: { policy, candidate: worse, 'policy-source': 'head' } });
    expect(result.code).toBe(1);
    expect(result.log).toContain('warning: No baseline: regression checks are inconclusive');
    // The check failed on its bound; its reasons say the budget was inconclusive.
    expect(result.summary).toContain('no baseline: regression budgets were not checked');
    expect(result.summary).toContain(
      '- ❌ **accuracy** (overall) blocks: 70% is below its minimum 80% (a point estimate: no error control); its budget was not compared: no baseline\n',
    );
  });

  it('makes the regression checks inconclusive without a baseline: the pull request warns, never a bare pass', async () => {
    const policy = writeFile('p.yml', 'version: 1\nname: abs\nchecks:\n  - metric: accuracy\n    min: 0.5\n    max_regression: 0.01\n');
    const result = await runAction({ inputs: { policy, candidate: worse, 'policy-source': 'head' } });
    expect([result.code, result.output('verdict'), result.output('failed-checks')]).toEqual([0, 'warn', '0']);
    const report = JSON.parse(readFileSync(result.output('report')!, 'utf8')) as GateReport;
    expect([report.checks[0].status, report.notRun]).toEqual(['inconclusive', 1]);
    expect(report.checks[0].reasons).toEqual(['regression inconclusive: no baseline to compare the change with']);
    expect(result.summary).toMatch(
      /^## ⚠️ evalgate: warn — 1 of 1 check did not run \(1 inconclusive\) · outcome inconclusive · policy abs · no baseline: regression budgets were inconclusive\n/m,
    );
    expect(github.comments[0].body).toContain('— 1 of 1 check did not run (1 inconclusive)');
    // fail-on: warn fails the step on it.
    const strict = await runAction({ inputs: { policy, candidate: worse, 'policy-source': 'head', 'fail-on': 'warn' } });
    expect(strict.code).toBe(1);
    // Outside a change (a manual run) the regression checks are skipped, and the headline says they did not run.
    const manual = await runAction({ event: 'workflow_dispatch', inputs: { policy, candidate: worse, 'policy-source': 'head' } });
    expect([manual.code, manual.output('verdict')]).toEqual([0, 'pass']);
    expect(manual.log).toContain('warning: No baseline: regression checks are skipped');
    expect(manual.summary).toMatch(
      /^## ✅ evalgate: pass — 1 of 1 check did not run \(1 skipped\) · policy abs · no baseline: regression budgets were skipped\n/m,
    );
  });
});

describe('the action outside pull requests and on bad input', () => {
  it('fails the step with the file, line and field of bad input', async () => {
    const broken = writeLines('records.jsonl', [record({ id: '1' }), { scenario: 's', id: '2', correct: 'yes' }]);
    const result = await runAction({ inputs: { policy: writeFile('p.yml', loosePolicy), candidate: broken, 'policy-source': 'head' } });
    expect(result.code).toBe(1);
    expect(result.log).toContain(`failed: ${broken}:2: "correct" must be a number in [0, 1], got "yes"`);
    expect(result.output('verdict')).toBe('error');
    const typo = writeFile('p.yml', 'version: 1\nname: x\nchecks:\n  - metric: accuracy\n    mni: 0.5\n');
    const policyError = await runAction({ inputs: { policy: typo, candidate: worse, 'policy-source': 'head' } });
    expect(policyError.log).toContain(`${typo}:5:5 checks[0].mni: unknown key (did you mean min?)`);
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
    expect(result.log).toMatch(/evalgate run: \d+ records \(0 failed calls, 0 retries/);
    const records = readFileSync(result.output('records')!, 'utf8').trim().split('\n');
    // Progress in the log: a line at every 10%, with the rate and the time left.
    const progress = result.log
      .split('\n')
      .filter((line) => /^evalgate: \d+\/\d+ \(\d+%\), [\d.]+ per second, about \d+ s left$/.test(line));
    expect(progress).toHaveLength(10);
    expect(progress[9]).toMatch(new RegExp(`^evalgate: ${records.length}/${records.length} \\(100%\\)`));
    expect(records.length).toBeGreaterThan(240);
    expect(result.summary).toContain('## ✅ evalgate: pass');
    // The completions are kept under RUNNER_TEMP (and in the Actions cache: action-e2e-cache.test.ts), never in the checkout.
    expect(existsSync(join(workspace, '.evalgate'))).toBe(false);
    expect(readdirSync(join(result.runnerTemp, 'evalgate-completions')).length).toBeGreaterThan(0);
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
    expect(result.log).toContain(
      `warning: evalgate import: ${cancelled}: the run did not finish (status "cancelled"): 1 of 3 samples are missing: 3;`,
    );
    expect(result.summary).toContain('(2 records, 2 instances)');
  });
});

describe('what changed instance by instance, in the comment', () => {
  const example = (file: string) => join(process.cwd(), 'examples/billing', file);

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
});

describe('what the action may write, by event', () => {
  const notSaved = 'warning: The Actions cache is not available here: the baseline was not saved.';

  it('saves the baseline on pushes to the default branch (auto), on every push, manual and scheduled run (true), never from a change', async () => {
    const policy = writeFile('p.yml', loosePolicy);
    const attempts = async (run: Omit<ActionRun, 'inputs'>, saveBaseline: string) => {
      const result = await runAction({
        ...run,
        inputs: { policy, candidate: worse, baseline, 'policy-source': 'head', 'save-baseline': saveBaseline },
      });
      expect(result.code).toBe(0);
      // Here the cache is not available: a run that would save says so.
      return { saves: result.log.includes(notSaved), ignored: result.log.includes('warning: save-baseline: true is ignored on') };
    };
    expect(await attempts({ event: 'push' }, 'auto')).toEqual({ saves: true, ignored: false });
    expect(await attempts({ event: 'push', ref: 'refs/heads/feature' }, 'auto')).toEqual({ saves: false, ignored: false });
    expect(await attempts({ event: 'push', ref: 'refs/heads/feature' }, 'true')).toEqual({ saves: true, ignored: false });
    expect(await attempts({ event: 'push' }, 'false')).toEqual({ saves: false, ignored: false });
    for (const event of ['workflow_dispatch', 'schedule'] as const) {
      expect(await attempts({ event }, 'auto')).toEqual({ saves: false, ignored: false });
      expect(await attempts({ event }, 'true')).toEqual({ saves: true, ignored: false });
    }
    for (const event of ['pull_request', 'pull_request_target', 'merge_group'] as const) {
      expect(await attempts({ event }, 'true')).toEqual({ saves: false, ignored: true });
    }
  });

  it('asks the runner to mask the token and the OpenAI key', async () => {
    const result = await runAction({
      inputs: { policy: writeFile('p.yml', loosePolicy), candidate: worse, baseline, 'policy-source': 'head' },
      env: { OPENAI_API_KEY: 'sk-masked' },
    });
    expect(result.secrets).toEqual([TOKEN, 'sk-masked']);
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
    expect(comment).toContain(
      '- ❌ **accuracy** (scenario overall) blocks: 45% is below its minimum 60% (a point estimate: no error control)\n',
    );
    expect(comment).toContain(
      '- ❌ **group\\_accuracy:region%3Aeu=a%3Db** (scenario overall) blocks: 10 pts worse than the baseline (95% interval of the change \\[',
    );
    expect(comment).toContain(
      '  title "Accuracy per region:eu (scenario overall)"\n  x-axis ["a=b: baseline", "a=b: candidate", "c d: baseline", "c d: candidate"]\n',
    );
    // The annotation of each failed check names its scope as the reports do.
    const titles = result.annotations.filter(({ level }) => level === 'error').map(({ properties }) => properties.title);
    expect(titles).toEqual(
      expect.arrayContaining(['evalgate: accuracy (scenario overall)', 'evalgate: group_accuracy:region%3Aeu=a%3Db (scenario overall)']),
    );
  });
});
