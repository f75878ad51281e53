import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { MetricsReport } from '../src/metrics/compute.js';
import type { GateReport } from '../src/report/json.js';
import { BASE_SHA, runAction } from './helpers/action.js';
import { startFakeCache, type FakeCache } from './helpers/cache-server.js';
import { evalgate, unwrapped } from './helpers/evalgate.js';
import { startFakeGitHub, type FakeGitHub } from './helpers/github-server.js';
import { linksIn, REFERENCE_TEXT, renderGfm, textMatching, URL_TEXT } from './helpers/github-markdown.js';
import { tempDir, writeLines } from './helpers/records.js';

/*
 * Hostile names in records and policies, through the bundled CLI and the bundled action posting its
 * comment to a stand-in for the GitHub API: nothing they hold may become a link, a mention, a
 * reference, a mermaid directive, a workflow command or an invisible character in any output, and a
 * scenario named like a property of Object.prototype is a scenario like any other.
 */

const SCENARIO = {
  link: '_www.evil.example/pixel',
  url: 'see https://evil.example/x or mail me@evil.example',
  reference: 'see #1, owner/repo#2, GH-3 and @octo-org/admins',
  proto: '__proto__',
  inherited: 'constructor',
  invisible: 'a\u061cb\u00adc\u2061\u2062\u2063\u2064d\u3164\u115f\u1160\uffa0e\u{e0041}\u{e007f}f\u202eg\u200bh',
  mermaid: '%%{init: {"theme": "forest"}}%% #lt;b#gt;',
  // Defences that held before: images, links, code fences, </summary>, table pipes, raw HTML.
  markup: '![i](https://evil.example/i.png) [l](https://evil.example) ``` </summary></details> a|b <img src=x>',
};
const POLICY_NAME = 'support _www.evil.example/p @octo-org/admins #5 --> end';
const TRADEOFF_NAME = 'calibration _www.evil.example/t owner/repo#6 \u001b[31m ##[error]forged';
const GROUP_VALUE = '_www.evil.example/g #7';
/** The characters of issue 12 that passed through, and the controls and marks handled before (line ends aside: outputs are lines). */
const INVISIBLE =
  /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u00ad\u061c\u115f\u1160\u200b-\u200f\u2028-\u202e\u2060-\u2064\u2066-\u2069\u3164\ufeff\uffa0\u{e0000}-\u{e007f}]/u;

/** 30 instances a scenario, answered as `outcome` says (undefined: left out); `groups` with an own "__proto__" key, as JSON.parse reads it. */
function records(outcome: (scenario: string, i: number) => number | undefined): string[] {
  return Object.values(SCENARIO).flatMap((scenario) =>
    Array.from({ length: 30 }, (_, i) => i).flatMap((i) => {
      const correct = outcome(scenario, i);
      if (correct === undefined) return [];
      const groups = `{"__proto__": ${JSON.stringify(GROUP_VALUE)}, "dialect": "${i % 2 ? 'a' : 'b'}"}`;
      return [`{"scenario": ${JSON.stringify(scenario)}, "id": "${i}_www.evil.example/id", "correct": ${correct}, "groups": ${groups}}`];
    }),
  );
}

/** The header of the checks' table, and its rows of accuracy checks. */
const CHECK_HEADER = '| status | check (scope) | candidate (95% CI) | change vs baseline (95% CI) | limit |';
const accuracyRows = (markdown: string) => markdown.split('\n').filter((line) => /^\| [^|]+ \| accuracy \(/.test(line));

const usual = (i: number) => (i % 4 === 0 ? 0 : 1);
const baselineFile = writeLines(
  'baseline.jsonl',
  records((_, i) => usual(i)),
);
// The link scenario gets every answer right (the trade-off applies), __proto__ none, and two
// instances of the reference scenario are missing (coverage names their ids).
const candidateFile = writeLines(
  'candidate.jsonl',
  records((scenario, i) =>
    scenario === SCENARIO.link ? 1 : scenario === SCENARIO.proto ? 0 : scenario === SCENARIO.reference && i < 2 ? undefined : usual(i),
  ),
);

function writePolicy(policy: object): string {
  const path = join(tempDir(), 'policy.json');
  writeFileSync(path, JSON.stringify({ version: 1, settings: { resamples: 200 }, ...policy }));
  return path;
}

const policyFile = writePolicy({
  name: POLICY_NAME,
  checks: [
    { metric: 'accuracy', max_regression: 0.02 },
    { metric: 'accuracy', scenario: SCENARIO.mermaid, max_regression: 0.5 },
    ...Object.values(SCENARIO).map((scenario) => ({ metric: 'accuracy', scenario, min: scenario === SCENARIO.proto ? 0.5 : 0 })),
    { metric: `group_accuracy:__proto__=${GROUP_VALUE}`, min: 0 },
    // A chart titled with the mermaid scenario's name: its groups' accuracy there.
    { metric: 'group_accuracy:dialect=a', scenario: SCENARIO.mermaid, min: 0 },
  ],
  tradeoffs: [
    {
      name: TRADEOFF_NAME,
      allow: [{ metric: 'accuracy', max_regression: 0.2 }],
      when: [{ metric: 'accuracy', scenario: SCENARIO.link, min_improvement: 0.1 }],
    },
  ],
});

/*
 * What a markdown report (the comment, the job summary, gate --markdown) must never do with the
 * hostile names, one check per point of issue 12; every name stays there, the same text once rendered.
 */

/** What held before and must keep holding: no image, link, code block, HTML element or table cell from data. */
function expectNoMarkup(markdown: string): void {
  const html = renderGfm(markdown);
  expect(linksIn(html)).toEqual([]);
  expect(html).not.toMatch(/<img|<script|<b>/);
  expect(html.split('<pre>').length - 1).toBe(markdown.split('\n```mermaid\n').length - 1); // the charts' only
  const scenarios = Object.keys(SCENARIO).length;
  // One collapsed block per scenario, one for the checks' tests, and one for the instance changes when both runs are records.
  const blocks = scenarios + 1 + (markdown.includes('<summary>What changed, instance by instance') ? 1 : 0);
  for (const tag of ['<details>', '</details>', '<summary>', '</summary>']) expect(html.split(tag).length - 1).toBe(blocks);
  const cells = (line: string) => line.replace(/\\\|/g, '').split('|').length;
  const rows = accuracyRows(markdown);
  expect(rows.length).toBe(scenarios + 2);
  for (const row of rows) expect(cells(row)).toBe(cells(CHECK_HEADER));
}

/** 1: no autolink (www. after an underscore too, http://, e-mail addresses), nor text a linkifier could take. */
function expectNoLinks(markdown: string): void {
  const html = renderGfm(markdown);
  expect(linksIn(html)).toEqual([]);
  expect(textMatching(html, URL_TEXT)).toEqual([]);
  expect(markdown).toContain(' | accuracy (\\_www<wbr>.evil.example/pixel) ');
  expect(markdown).toContain('<summary>Scenario see https:<wbr>//evil.example/x or mail me@<wbr>evil.example: ');
}

/** 2: no #1, owner/repo#2 or GH-3 reference, nor @mention, in a <summary> or in markdown text. */
function expectNoReferences(markdown: string): void {
  expect(textMatching(renderGfm(markdown), REFERENCE_TEXT)).toEqual([]);
  expect(markdown).toContain('<summary>Scenario see #<wbr>1, owner/repo#<wbr>2, GH-<wbr>3 and @<wbr>octo-org/admins: ');
  expect(markdown).toContain('policy support \\_www<wbr>.evil.example/p @<wbr>octo-org/admins \\#<wbr>5 --\\> end');
}

/** 3: the scenario named __proto__ is reported (failing), and so are constructor and the group attribute __proto__. */
function expectProtoScenarios(markdown: string): void {
  expect(markdown).toMatch(/\| ❌ fail +\| accuracy \(\\_\\_proto\\_\\_\) +\| +0% \\\[0, 0\\\] \|/);
  expect(markdown).toContain('<details><summary>Scenario __proto__: every metric of the candidate</summary>');
  expect(markdown).toContain('<details><summary>Scenario constructor: every metric of the candidate</summary>');
  expect(markdown).toContain('| group\\_accuracy:\\_\\_proto\\_\\_=');
}

/** 4: no invisible or format character; each shown as an escape instead. */
function expectNothingInvisible(markdown: string): void {
  expect(markdown).not.toMatch(INVISIBLE);
  const shown = 'a\\u061cb\\u00adc\\u2061\\u2062\\u2063\\u2064d\\u3164\\u115f\\u1160\\uffa0e\\u{e0041}\\u{e007f}f\\u202eg\\u200bh';
  expect(markdown).toContain(`<summary>Scenario ${shown}: `);
  expect(markdown).toContain(` | accuracy (${shown.replace(/\\/g, '\\\\').replace(/[{}]/g, '\\$&')}) `);
}

/** 5: the charts' titles and labels hold no directive (%%{init}%%), comment (%%) or entity code (#name;). */
function expectPlainChart(markdown: string): void {
  const charts = [...markdown.matchAll(/```mermaid\n([\s\S]*?)\n```/g)].map((match) => match[1]);
  expect(charts.join('\n')).toContain('title "Accuracy per dialect (% %{init: { theme :  forest }}% % # lt;b# gt;)"');
  for (const chart of charts) expect(chart).not.toMatch(/%%|#\w+;/);
}

/** No line a runner reads as a workflow command ("::" at its start, after spaces; "##[" anywhere) but the action's own, and nothing invisible. */
function expectNoWorkflowCommand(log: string, own = (_line: string) => false): void {
  for (const line of log.split('\n')) {
    if (own(line)) continue;
    expect(line.trimStart()).not.toMatch(/^::/);
    expect(line).not.toContain('##[');
    expect(line).not.toMatch(INVISIBLE);
  }
}

describe('hostile names through the CLI', () => {
  const dir = tempDir();
  let gate: Awaited<ReturnType<typeof evalgate>>;
  beforeAll(async () => {
    gate = await evalgate([
      'gate',
      '--policy',
      policyFile,
      '--candidate',
      candidateFile,
      '--baseline',
      baselineFile,
      '--markdown',
      join(dir, 'report.md'),
      '--json',
      join(dir, 'report.json'),
    ]);
  });

  const markdown = () => readFileSync(join(dir, 'report.md'), 'utf8');

  it('1: the markdown report autolinks nothing, www. after an underscore included', () => {
    expect([gate.code, gate.stderr]).toEqual([1, '']);
    expectNoLinks(markdown());
  });

  it('keeps images, links, code fences, </summary>, raw HTML and table pipes inert', () => {
    expectNoMarkup(markdown());
  });

  it('2: the markdown report references no issue and mentions no one', () => {
    expectNoReferences(markdown());
  });

  it('3: the markdown report shows the scenario named __proto__ failing', () => {
    expectProtoScenarios(markdown());
  });

  it('4: the markdown report hides nothing: invisible and format characters are shown as escapes', () => {
    expectNothingInvisible(markdown());
  });

  it("5: the markdown report's chart takes no mermaid directive from a label", () => {
    expectPlainChart(markdown());
  });

  it('3: the JSON report keeps the scenarios named like properties of Object', () => {
    const report = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as GateReport;
    expect(Object.keys(report.scenarios).sort()).toEqual(Object.values(SCENARIO).sort());
    expect(report.scenarios[SCENARIO.proto].accuracy.value).toBe(0);
    expect(report.scenarios[SCENARIO.proto][`group_accuracy:__proto__=${GROUP_VALUE}`].value).toBe(0);
    const protoCheck = report.checks.find((check) => check.scope === SCENARIO.proto)!;
    expect([protoCheck.status, protoCheck.reasons]).toEqual(['fail', ['below the minimum 50%']]);
  });

  it('6: the terminal report shows control characters as escapes and lets no data start a workflow command', () => {
    expectNoWorkflowCommand(gate.stdout);
    const text = unwrapped(gate.stdout);
    expect(text).toContain('trade-off applied: calibration _www.evil.example/t owner/repo#6 \\u001b[31m ##\\u005berror]forged');
    expect(text).toContain('  fail  accuracy (__proto__) blocks: 0% is below its minimum 50%');
    // The limit the trade-off set, in the table's cell wrapped over lines of its own.
    expect(gate.stdout).toMatch(/worse by ≤ 2 pts \(20[\s\S]*by trade-off[\s\S]*"calibration[\s\S]*##\\u005berror\]forged"\)/);
  });

  it('3: metrics --json keeps every scenario and group, and reads back as a candidate with them', async () => {
    const metrics = await evalgate(['metrics', candidateFile, '--json', '--resamples', '0']);
    const report = JSON.parse(metrics.stdout) as MetricsReport;
    expect(Object.keys(report.scenarios).sort()).toEqual(Object.values(SCENARIO).sort());
    expect(report.scenarios[SCENARIO.proto].accuracy).toEqual({ value: 0, ci: null, n: 30 });
    expect(report.overall[`group_accuracy:__proto__=${GROUP_VALUE}`].n).toBe(238);
    const text = await evalgate(['metrics', candidateFile, '--resamples', '0']);
    expect(text.stdout).toContain('\nscenario __proto__\n');
    expectNoWorkflowCommand(text.stdout);

    const metricsFile = join(tempDir(), 'metrics.json');
    writeFileSync(metricsFile, metrics.stdout);
    const policy = writePolicy({
      name: 'p',
      checks: [
        { metric: 'accuracy', scenario: SCENARIO.proto, min: 0.5 },
        { metric: 'accuracy', scenario: 'toString', min: 0.5 },
        { metric: 'hasOwnProperty', direction: 'higher', min: 0.5 },
      ],
    });
    for (const candidate of [metricsFile, candidateFile]) {
      const json = join(tempDir(), 'report.json');
      const result = await evalgate(['gate', '--policy', policy, '--candidate', candidate, '--json', json]);
      expect([result.code, result.stderr]).toEqual([1, '']);
      const reasons = (JSON.parse(readFileSync(json, 'utf8')) as GateReport).checks.map((check) => check.reasons);
      expect(reasons).toEqual([
        ['below the minimum 50%'],
        ['the candidate has no accuracy for toString'],
        ['the candidate has no hasOwnProperty for overall'],
      ]);
    }
  });

  it('6: compare, validate and error messages escape what they quote', async () => {
    const forged = writePolicy({ name: '::error title=forged::pass ##[warning]x \u001b[2K', checks: [{ metric: 'accuracy', min: 0.99 }] });
    const compare = await evalgate(['compare', '--policy', forged, '--candidate', `::warning::c=${candidateFile}`]);
    expect(compare.code).toBe(0);
    expectNoWorkflowCommand(compare.stdout);
    expect(compare.stdout).toContain('\\u003a:error title=forged::pass ##\\u005bwarning]x \\u001b[2K: would ship none of them\n');

    const badKey = join(tempDir(), 'bad.json');
    writeFileSync(
      badKey,
      JSON.stringify({ version: 1, name: 'p', checks: [{ metric: 'accuracy', min: 0.5, '##[error]forged\u001b[2K': 1 }] }),
    );
    const validate = await evalgate(['validate', badKey]);
    expect(validate.code).toBe(2);
    expectNoWorkflowCommand(validate.stderr);

    const duplicate = writeLines('shard.jsonl', [{ scenario: 's', id: '##[error]forged\u2028::error::x', correct: 1 }]);
    const merge = await evalgate(['merge', '--out', join(tempDir(), 'out.jsonl'), duplicate, duplicate]);
    expect(merge.code).toBe(2);
    expectNoWorkflowCommand(merge.stderr);
    expect(merge.stderr).toContain('##\\u005berror]forged\\u2028::error::x');
  });
});

describe('hostile names through the action', () => {
  let github: FakeGitHub;
  let cache: FakeCache;
  beforeAll(async () => {
    github = await startFakeGitHub('octo', 'models');
    cache = await startFakeCache();
  });
  afterAll(async () => {
    await github.close();
    await cache.close();
  });
  /** The action's own workflow commands: the token's mask, debug lines, its annotations (data escaped in them), its warnings and its verdict. */
  const ownCommand = (line: string) =>
    /^::(add-mask::|debug::|(error|warning) title=evalgate%3A |error::evalgate: (fail|warn) \(policy |warning::No baseline)/.test(line);

  it('1-6: posts a comment and a summary that link, mention and reference nothing and hide nothing, and logs no workflow command', async () => {
    const result = await runAction(github, {
      event: 'pull_request',
      inputs: { policy: policyFile, candidate: candidateFile, baseline: baselineFile, 'policy-source': 'head' },
    });
    expect(result.code).toBe(1);
    expect(github.comments).toHaveLength(1);
    // The hidden marker names the policy, but cannot end its HTML comment early.
    const [marker] = github.comments[0].body.split('\n');
    expect(marker.slice('<!--'.length, -'-->'.length)).not.toMatch(/--|>/);
    for (const markdown of [github.comments[0].body, result.summary]) {
      expectNoMarkup(markdown);
      expectNoLinks(markdown);
      expectNoReferences(markdown);
      expectProtoScenarios(markdown);
      expectNothingInvisible(markdown);
      expectPlainChart(markdown);
    }
    expectNoWorkflowCommand(result.stdout, ownCommand);
    // A workflow command writes % as %25.
    expect(result.stdout).toContain('::error title=evalgate%3A accuracy (__proto__)::below the minimum 50%25\n');
  });

  it('6: logs a policy name without letting it start a workflow command', async () => {
    const policy = writePolicy({ name: 'x\n::error::forged ##[error]y \u202e', checks: [{ metric: 'accuracy', min: 0 }] });
    const push = await runAction(github, {
      event: 'push',
      sha: BASE_SHA,
      inputs: { policy, candidate: baselineFile, 'policy-source': 'head' },
      env: { ACTIONS_CACHE_SERVICE_V2: 'true', ACTIONS_RESULTS_URL: cache.url, ACTIONS_RUNTIME_TOKEN: 'runtime-token' },
    });
    expect(push.code).toBe(0);
    expect(push.stdout).toContain('Saved the baseline for policy x\\n::error::forged ##\\u005berror]y \\u202e at ');
    expectNoWorkflowCommand(push.stdout, ownCommand);
  });
});

describe("the comment's size limit", () => {
  it('7: cuts between whole rows and blocks, never inside a character, and says what it left out', async () => {
    // 300 scenarios with long names (astral characters, pipes): far more than one comment holds.
    const names = Array.from({ length: 300 }, (_, i) => `scenario ${i} 📈|${'_x😀'.repeat(40)}`);
    const candidate = writeLines(
      'candidate.jsonl',
      names.flatMap((scenario) => [0, 1].map((i) => ({ scenario, id: String(i), correct: i }))),
    );
    const policy = writePolicy({
      name: 'many',
      settings: { resamples: 1 },
      checks: names.map((scenario) => ({ metric: 'accuracy', scenario, min: 0 })),
    });
    const out = join(tempDir(), 'report.md');
    const result = await evalgate(['gate', '--policy', policy, '--candidate', candidate, '--markdown', out]);
    expect(result.code).toBe(0);
    const markdown = readFileSync(out, 'utf8');
    expect(markdown.length).toBeLessThanOrEqual(65_000);
    expect(markdown).not.toContain('\ufffd'); // a surrogate pair cut in two
    // Every table row whole: as many cells as its header.
    const cells = (line: string) => line.replace(/\\\|/g, '').split('|').length;
    const rows = accuracyRows(markdown);
    expect(rows.length).toBeGreaterThan(10);
    for (const row of rows) expect(cells(row)).toBe(cells(CHECK_HEADER));
    expect(markdown.split('<details>').length).toBe(markdown.split('</details>').length);
    expect(markdown.split('```').length % 2).toBe(1);
    // The note, after a blank line (not read as a row), counts what is missing.
    const note =
      /\n\n_Left out to stay within GitHub's comment size limit: (\d+) of the 300 rows of the checks' table, the checks' tests, power and counts, the line naming the policy and the runs, 300 of the 300 per-scenario details\. The JSON report has them all\._\n$/.exec(
        markdown,
      );
    expect(Number(note?.[1])).toBe(300 - rows.length);
  });
});

describe('numbers that are not numbers', () => {
  it('refuses NaN, Infinity and 1e999 in records and metrics files, naming the file and the field', async () => {
    const huge = writeLines('records.jsonl', ['{"scenario": "s", "id": "1", "correct": 1e999}']);
    const records = await evalgate(['metrics', huge]);
    expect([records.code, records.stderr]).toEqual([2, `evalgate: ${huge}:1: "correct" must be a number in [0, 1], got Infinity\n`]);
    for (const literal of ['NaN', 'Infinity']) {
      const file = writeLines('records.jsonl', [`{"scenario": "s", "id": "1", "correct": 1, "latency_ms": ${literal}}`]);
      const result = await evalgate(['metrics', file]);
      expect(result.code).toBe(2);
      expect(result.stderr).toContain(`evalgate: ${file}:1: not valid JSON`);
    }
    const metricsFile = join(tempDir(), 'metrics.json');
    writeFileSync(metricsFile, '{"overall": {}, "scenarios": {"__proto__": {"accuracy": {"value": 1e999, "ci": null, "n": 3}}}}\n');
    const policy = writePolicy({ name: 'p', checks: [{ metric: 'accuracy', scenario: '__proto__', min: 0.5 }] });
    const gate = await evalgate(['gate', '--policy', policy, '--candidate', metricsFile]);
    expect(gate.code).toBe(2);
    expect(gate.stderr).toContain(`evalgate: ${metricsFile}: not a valid metrics report: "scenarios.__proto__.accuracy.value": `);
  });
});
