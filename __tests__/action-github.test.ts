import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { commentMarker } from '../src/action/github/comment.js';
import { runAction as runActionOn, writeFile, type ActionRun } from './helpers/action.js';
import { startFakeGitHub, type FakeGitHub } from './helpers/github-server.js';
import { record, writeLines } from './helpers/records.js';

/* The action against GitHub's limits and failures: long names, refused and rate-limited requests, labels that change. */

let github: FakeGitHub;
beforeAll(async () => {
  github = await startFakeGitHub('octo', 'models');
});
afterAll(async () => {
  await github.close();
});
beforeEach(() => {
  github.comments.length = 0;
  github.pulls.clear();
  github.commentFailure = undefined;
  github.readOnly = false;
});
const runAction = (run: ActionRun) => runActionOn(github, run);

const baselineRecords = Array.from({ length: 300 }, (_, i) => record({ scenario: 'billing', id: String(i), correct: i % 4 === 0 ? 0 : 1 }));
const baseline = writeLines('baseline.jsonl', baselineRecords);
const worse = writeLines(
  'worse.jsonl',
  baselineRecords.map((r, i) => (i % 20 === 1 ? { ...r, correct: 0 } : r)),
);
const policyText = (name: string, budget = 0.02) =>
  `version: 1\nname: ${name}\nsettings:\n  resamples: 200\nchecks:\n  - metric: accuracy\n    max_regression: ${budget}\n`;

describe('the sticky comment marker', () => {
  it('keeps ids and long names apart, and stays short', () => {
    const long = 'x'.repeat(70_000);
    const markers = [
      commentMarker('support'),
      commentMarker('support', 'a'),
      commentMarker('support', 'a policy=b'),
      commentMarker('support id=a'),
      commentMarker(long),
      commentMarker(`${long}y`),
      commentMarker(`${'x'.repeat(64)}%…`),
      commentMarker('support', long),
    ];
    expect(new Set(markers).size).toBe(markers.length);
    expect(commentMarker('support', 'gpt-4o')).toBe('<!-- evalgate:id=gpt-4o policy=support -->');
    for (const marker of markers) {
      expect(marker.length).toBeLessThan(200);
      expect(marker.slice('<!--'.length, -'-->'.length)).not.toMatch(/--|>|\n/);
    }
  });

  it("lets a comment for a 70,000-character policy name or id fit GitHub's 65,536 characters", async () => {
    const long = 'p'.repeat(70_000);
    for (const inputs of <Array<Record<string, string>>>[
      { policy: writeFile('p.yml', policyText(long)) },
      { policy: writeFile('p.yml', policyText('support')), id: long },
    ]) {
      const result = await runAction({ inputs: { ...inputs, candidate: worse, baseline, 'policy-source': 'head', 'fail-on': 'never' } });
      expect(result.stdout).toContain('Comment created');
      expect(result.output('comment-url')).toBeDefined();
    }
    expect(github.comments).toHaveLength(2);
    for (const comment of github.comments) expect(comment.body.length).toBeLessThanOrEqual(65_536);
  });
});
