import { describe, expect, it } from '@jest/globals';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { MAX_COMMENT_CHARACTERS } from '../src/report/markdown.js';
import { evalgate, gateArgs, unwrapped } from './helpers/evalgate.js';
import { expectInertMarkdown, hostileRuns } from './helpers/hostile.js';
import { record, tempDir, writeLines } from './helpers/records.js';

/*
 * The instance changes in the reports the bundled CLI writes: what a model wrote stays inert, and the
 * comment keeps its size limit with the changes cut first.
 */

/** What must hold of terminal text: no control character, no line that starts a workflow command. */
function expectInertText(text: string): void {
  expect(text).not.toMatch(/^::/m);
  expect(text).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f\u202a-\u202e\u2066-\u2069]/);
}

function policyFile(text: string): string {
  const file = join(tempDir(), 'policy.yml');
  writeFileSync(file, `version: 1\nname: t\nsettings:\n  resamples: 100\nchecks:\n${text}`);
  return file;
}

describe('hostile inputs and predictions', () => {
  it('stay inert in the comment, the terminal report and evalgate diff, and are still shown', async () => {
    const { candidate, baseline } = hostileRuns();
    const markdownFile = join(tempDir(), 'comment.md');
    const policy = policyFile('  - metric: accuracy\n    min: 0.9\n');
    // The terminal shows the changed examples' texts with --verbose.
    const gate = await evalgate(gateArgs(policy, candidate, baseline, { markdown: markdownFile, extra: ['--verbose'] }));
    expect(gate.code).toBe(1);
    const markdown = readFileSync(markdownFile, 'utf8');
    expect(markdown).toMatch(/<details><summary>What changed, instance by instance: 15 right → wrong, 15 wrong → right of 30 examples/);
    expect(markdown).toMatch(/prediction 3$/m);
    expect(markdown).toMatch(/reference 17$/m);
    expectInertMarkdown(markdown);

    const diff = await evalgate(['diff', '--candidate', candidate, '--baseline', baseline]);
    for (const text of [gate.stdout, diff.stdout]) {
      expect(unwrapped(text)).toContain('\\r::error title=evalgate::forged\\u001b[2K prediction 3');
      expectInertText(text);
    }
  });
});

/** `scenarios` scenarios of 12 instances with 300-character texts, half of them broken and half fixed. */
function bigRuns(scenarios: number): { candidate: string; baseline: string } {
  const make = (right: (i: number) => boolean) =>
    Array.from({ length: scenarios * 12 }, (_, i) =>
      record({
        scenario: `scenario-${Math.floor(i / 12)}`,
        id: String(i),
        correct: right(i) ? 1 : 0,
        latency_ms: 100,
        input: `input ${i} ${'<'.repeat(300)}`,
        prediction: `prediction ${i} ${'*'.repeat(300)}`,
        references: Array.from({ length: 5 }, (_, k) => `reference ${k} ${'|'.repeat(300)}`),
      }),
    );
  return {
    baseline: writeLines(
      'baseline.jsonl',
      make((i) => i % 2 === 0),
    ),
    candidate: writeLines(
      'candidate.jsonl',
      make((i) => i % 2 === 1),
    ),
  };
}

describe('the comment size limit', () => {
  const failing = policyFile('  - metric: accuracy\n    min: 0.9\n  - metric: latency_p50_ms\n    max: 50\n');
  const comment = async (runs: { candidate: string; baseline: string }) => {
    const file = join(tempDir(), 'comment.md');
    const result = await evalgate([
      'gate',
      '--policy',
      failing,
      '--candidate',
      runs.candidate,
      '--baseline',
      runs.baseline,
      '--markdown',
      file,
    ]);
    expect(result.code).toBe(1);
    const markdown = readFileSync(file, 'utf8');
    expect(markdown.length).toBeLessThanOrEqual(MAX_COMMENT_CHARACTERS);
    // The verdict and the failing checks always stay.
    expect(markdown).toMatch(/^## ❌ evalgate: fail \(2 blocking checks failed\)/);
    expect(markdown).toContain('- ❌ **accuracy** (overall) blocks: 50% is below its minimum 90% (a point estimate: no error control)\n');
    expect(markdown).toContain(
      '- ❌ **latency\\_p50\\_ms** (overall) blocks: 100 ms is above its maximum 50 ms (a point estimate: no error control)\n',
    );
    return markdown;
  };

  it('lists fewer examples first, keeping the counts and every scenario’s details', async () => {
    const markdown = await comment(bigRuns(3));
    expect(markdown).toContain('_Fewer examples listed than the JSON report has, to stay within the comment size limit._');
    expect(markdown).toMatch(/\| scenario-2 +\| originals +\| +12 \| +6 \| +6 \|/);
    expect(markdown).toMatch(/\*\*scenario-0\*\* · right → wrong: 6, the \d that changed most/);
    expect(markdown.match(/<summary>Scenario scenario-\d: every metric/g)).toHaveLength(3);
    expect(markdown).not.toContain('per-scenario details');
    expectInertMarkdown(markdown);
  });

  it('leaves the changes out before the per-scenario details when there is no room', async () => {
    const markdown = await comment(bigRuns(200));
    expect(markdown).not.toContain('<summary>What changed');
    expect(markdown).toMatch(/_Left out to stay within GitHub's comment size limit: \d+ of the 200 per-scenario details/);
  });
});
