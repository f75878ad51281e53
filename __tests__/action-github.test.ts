import { describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { commentMarker } from '../src/action/github/comment.js';
import { writeFile, type ActionRun, useFakeGitHub, regressionRuns } from './helpers/action.js';
import { runInProcess } from './helpers/action-in-process.js';
import { tempDir } from './helpers/records.js';
import { type FakeGitHub } from './helpers/github-server.js';

/* The action against GitHub's limits and failures: long names, refused and rate-limited requests, labels that change. */

let github: FakeGitHub;
useFakeGitHub((server) => (github = server));
const runAction = (run: ActionRun) => runInProcess(github, run);

const { baseline, worse } = regressionRuns();
const policyText = (name: string, budget = 0.02) =>
  `version: 1\nname: ${name}\nsettings:\n  resamples: 200\nchecks:\n  - metric: accuracy\n    max_regression: ${budget}\n`;

describe('the sticky comment marker', () => {
  it('keeps ids, paths and long names apart, and stays short', () => {
    const long = 'x'.repeat(70_000);
    const markers = [
      commentMarker({ policy: 'support' }),
      commentMarker({ policy: 'support', id: 'a' }),
      commentMarker({ policy: 'support', id: 'a policy=b' }),
      commentMarker({ policy: 'support id=a' }),
      commentMarker({ policy: long }),
      commentMarker({ policy: `${long}y` }),
      commentMarker({ policy: `${'x'.repeat(64)}%…` }),
      commentMarker({ policy: 'support', id: long }),
      commentMarker({ policy: 'support', path: 'policies/prod.yml' }),
      commentMarker({ policy: 'support', path: 'policies/staging.yml' }),
      commentMarker({ policy: 'support', id: 'a', path: 'policies/prod.yml' }),
      commentMarker({ policy: 'support', id: 'a path=policies/prod.yml' }),
      commentMarker({ policy: 'path=p support', id: 'a' }),
      commentMarker({ policy: 'support', path: `policies/${long}.yml` }),
      commentMarker({ policy: 'support', path: `policies/${long}y.yml` }),
    ];
    expect(new Set(markers).size).toBe(markers.length);
    // Without a path: the marker earlier versions wrote (found and taken over).
    expect(commentMarker({ policy: 'support', id: 'gpt-4o' })).toBe('<!-- evalgate:id=gpt-4o policy=support -->');
    expect(commentMarker({ policy: 'support', id: 'gpt-4o', path: 'policies/a b.yml' })).toBe(
      '<!-- evalgate:id=gpt-4o path=policies/a%20b.yml policy=support -->',
    );
    for (const marker of markers) {
      expect(marker.length).toBeLessThan(300);
      expect(marker.slice('<!--'.length, -'-->'.length)).not.toMatch(/--|>|\n/);
    }
  });

  it('is one per policy file: two files of one name keep their own comments; a comment with the earlier marker is taken over by the first', async () => {
    const repo = tempDir();
    execFileSync('git', ['init', '-q', repo]);
    mkdirSync(join(repo, 'policies'));
    writeFileSync(join(repo, 'policies/prod.yml'), policyText('support'));
    writeFileSync(join(repo, 'policies/staging.yml'), policyText('support', 0.5));
    // What an earlier version wrote for the name, before markers named the file.
    github.comments.push({
      id: 900,
      body: '<!-- evalgate:policy=support -->\nold report',
      user: { login: 'github-actions[bot]', type: 'Bot' },
      html_url: 'https://github.com/octo/models/pull/7#issuecomment-900',
    });
    const gate = (policy: string) => runAction({ inputs: { policy, candidate: worse, baseline, 'policy-source': 'head' }, cwd: repo });
    expect((await gate('policies/prod.yml')).code).toBe(1);
    expect((await gate('policies/staging.yml')).code).toBe(0);
    const again = await gate('policies/prod.yml');
    expect(again.log).toContain('Comment unchanged');
    expect(github.comments.map((entry) => [entry.id, ...entry.body.split('\n', 2)])).toEqual([
      [900, '<!-- evalgate:path=policies/prod.yml policy=support -->', expect.stringMatching(/^## ❌ evalgate: fail/)],
      [expect.any(Number), '<!-- evalgate:path=policies/staging.yml policy=support -->', expect.stringMatching(/^## ✅ evalgate: pass/)],
    ]);
  });

  it("lets a comment for the longest policy name (200 characters) or a 70,000-character id fit GitHub's 65,536 characters", async () => {
    const long = 'p'.repeat(70_000);
    for (const inputs of <Array<Record<string, string>>>[
      { policy: writeFile('p.yml', policyText('p'.repeat(200))) },
      { policy: writeFile('p.yml', policyText('support')), id: long },
    ]) {
      const result = await runAction({ inputs: { ...inputs, candidate: worse, baseline, 'policy-source': 'head', 'fail-on': 'never' } });
      expect(result.log).toContain('Comment created');
      expect(result.output('comment-url')).toBeDefined();
    }
    expect(github.comments).toHaveLength(2);
    for (const comment of github.comments) expect(comment.body.length).toBeLessThanOrEqual(65_536);
  });
});

describe('GitHub API errors', () => {
  it('a comment that fails (422, 404, 5xx) warns; the outputs, the summary and the verdict stand', async () => {
    const policy = writeFile('p.yml', policyText('support', 0.5));
    for (const failure of [
      { status: 422, message: 'Validation Failed' },
      { status: 404, message: 'Not Found' },
      { status: 502, message: 'Bad Gateway' },
    ]) {
      github.commentFailure = failure;
      const result = await runAction({ inputs: { policy, candidate: worse, baseline, 'policy-source': 'head' } });
      expect([failure.status, result.code, result.output('verdict'), result.output('failed-checks')]).toEqual([
        failure.status,
        0,
        'pass',
        '0',
      ]);
      expect(result.output('report')).toBeDefined();
      expect(result.summary).toContain('## ✅ evalgate: pass');
      expect(result.log).toContain(`warning: The comment could not be written (HTTP ${failure.status}: ${failure.message}`);
    }
  });

  it('a rate limit (403 with no requests left, or a secondary limit) is reported as one, not as a fork', async () => {
    const strict = writeFile('p.yml', policyText('support'));
    for (const failure of [
      { status: 403, message: 'API rate limit exceeded for installation.', headers: { 'x-ratelimit-remaining': '0' } },
      { status: 403, message: 'You have exceeded a secondary rate limit. Please wait a few minutes before you try again.' },
    ]) {
      github.commentFailure = failure;
      const result = await runAction({ inputs: { policy: strict, candidate: worse, baseline, 'policy-source': 'head' } });
      expect(result.log).toContain("warning: GitHub's API rate limit stopped the comment");
      expect(result.log).not.toContain('a fork?');
      expect([result.code, result.output('verdict')]).toEqual([1, 'fail']); // the verdict still decides the step
    }
  });

  it('reads the waiver label from the pull request as it is now, not from the event', async () => {
    const inputs = {
      policy: writeFile('p.yml', policyText('support')),
      candidate: worse,
      baseline,
      'policy-source': 'head',
      'waiver-label': 'accept-regression',
    };
    // Added after the event fired (or before a re-run of it): the event's payload does not list it.
    github.pulls.set(7, { head: { sha: 'c'.repeat(40) }, labels: ['accept-regression'] });
    const added = await runAction({ inputs, labels: [] });
    expect(added.code).toBe(0);
    expect(added.output('verdict')).toBe('fail');
    expect(github.comments[0].body).toContain('evalgate: fail (waived by label accept-regression)');
    // Removed since the event fired: no longer waived.
    github.pulls.set(7, { head: { sha: 'c'.repeat(40) }, labels: [] });
    const removed = await runAction({ inputs, labels: ['accept-regression'] });
    expect(removed.code).toBe(1);
    expect(github.comments[0].body).not.toContain('waived');
  });

  it('annotates warning checks too', async () => {
    const policy = writeFile('p.yml', policyText('support').replace('max_regression: 0.02', 'max_regression: 0.02\n    severity: warn'));
    const result = await runAction({ inputs: { policy, candidate: worse, baseline, 'policy-source': 'head', comment: 'false' } });
    expect(result.code).toBe(0);
    expect(result.output('verdict')).toBe('warn');
    expect(result.annotations).toContainEqual({
      level: 'warning',
      message: expect.stringMatching(/^worse than the baseline by 5(\.\d+)? pts/),
      properties: { title: 'evalgate: accuracy (overall)' },
    });
  });
});
