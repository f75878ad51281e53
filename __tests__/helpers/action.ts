import { afterAll, beforeAll, beforeEach } from '@jest/globals';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { EvalRecord } from '../../src/records/types.js';
import { startFakeGitHub, type FakeGitHub } from './github-server.js';
import { record, tempDir, writeLines } from './records.js';
import { runProcess, type RunResult } from './run.js';

/*
 * The real bundle (dist/index.js) in a child process, with the environment the Actions runner sets,
 * against a local stand-in for the GitHub REST API.
 */

// GitHub runs the action on Node 24: CI runs the bundle's tests (action-e2e*.test.ts) a second time with EVALGATE_ACTION_NODE
// set to a Node 24 binary (.ci/run installs one from npm).
export const ACTION_NODE = process.env.EVALGATE_ACTION_NODE || process.execPath;
export const TOKEN = 'ghs_secretTokenThatMustNeverBePrinted123';
export const BASE_SHA = 'b'.repeat(40);
export const HEAD_SHA = 'c'.repeat(40);

export type ActionEvent =
  'pull_request' | 'pull_request_target' | 'push' | 'workflow_dispatch' | 'schedule' | 'workflow_run' | 'merge_group';

export interface ActionRun {
  event?: ActionEvent;
  inputs: Record<string, string>;
  /** The labels the event payload lists (a snapshot from when the event fired). */
  labels?: string[];
  /** The checked-out workspace (the action's working directory). */
  cwd?: string;
  baseSha?: string;
  /** The pull request's base branch (or the merge group's). */
  baseRef?: string;
  sha?: string;
  /** GITHUB_REF of a push, manual or scheduled run (refs/heads/main by default). */
  ref?: string;
  env?: NodeJS.ProcessEnv;
  /** workflow_run: what the triggering run built, and the pull requests its payload lists (none for a fork's). */
  workflowRun?: { headSha: string; headBranch?: string; headOwner?: string; pullRequests?: number[] };
  /** RUNNER_TEMP (a fresh folder by default, as every job gets). */
  runnerTemp?: string;
  /** The pull request's number (7 by default). */
  pullNumber?: number;
  /** GITHUB_RUN_ID and GITHUB_RUN_ATTEMPT (99 and 1 by default): a re-run of a job keeps the id and counts the attempt up. */
  runId?: string;
  runAttempt?: number;
}

/** The inputs every run gets unless it sets them (as a workflow that sets only `policy` and the run's files would). */
export const DEFAULT_INPUTS: Record<string, string> = {
  'github-token': TOKEN,
  comment: 'true',
  'save-baseline': 'auto',
  'fail-on': 'fail',
};

export interface ActionResult extends RunResult {
  output(name: string): string | undefined;
  summary: string;
  runnerTemp: string;
}

export function payloadOf(run: ActionRun, baseSha: string, sha: string): Record<string, unknown> {
  const repository = { default_branch: 'main', full_name: 'octo/models' };
  const baseRef = run.baseRef ?? 'main';
  switch (run.event ?? 'pull_request') {
    case 'pull_request':
    case 'pull_request_target':
      return {
        action: 'synchronize',
        number: run.pullNumber ?? 7,
        pull_request: {
          number: run.pullNumber ?? 7,
          base: { sha: baseSha, ref: baseRef },
          head: { sha, ref: 'feature' },
          labels: (run.labels ?? []).map((name) => ({ name })),
        },
        repository,
      };
    case 'workflow_run': {
      const built = run.workflowRun!;
      return {
        action: 'completed',
        workflow_run: {
          id: 4242,
          event: 'pull_request',
          head_sha: built.headSha,
          head_branch: built.headBranch ?? 'feature',
          head_repository: { full_name: `${built.headOwner ?? 'octo'}/models`, owner: { login: built.headOwner ?? 'octo' } },
          pull_requests: (built.pullRequests ?? []).map((number) => ({ number, head: { sha: built.headSha }, base: { sha: baseSha } })),
        },
        repository,
      };
    }
    case 'merge_group':
      return {
        action: 'checks_requested',
        merge_group: { head_sha: sha, base_sha: baseSha, base_ref: `refs/heads/${baseRef}` },
        repository,
      };
    default:
      return { ref: run.ref ?? 'refs/heads/main', after: sha, repository };
  }
}

export function refOf(event: ActionEvent, ref = 'refs/heads/main', pullNumber = 7): string {
  if (event === 'pull_request' || event === 'pull_request_target') return `refs/pull/${pullNumber}/merge`;
  if (event === 'merge_group') return 'refs/heads/gh-readonly-queue/main/pr-7-abc';
  return ref;
}

/**
 * The outputs as the runner reads $GITHUB_OUTPUT: `name<<DELIMITER` ... `DELIMITER` blocks and
 * `name=value` lines, the last value of each name kept.
 */
function readOutputs(text: string): Map<string, string> {
  const outputs = new Map<string, string>();
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const block = /^([^=<]+)<<(.+)$/.exec(lines[i]);
    if (block) {
      const end = lines.indexOf(block[2], i + 1);
      if (end < 0) break; // an unfinished block: the runner fails the step
      outputs.set(block[1], lines.slice(i + 1, end).join('\n'));
      i = end;
    } else if (lines[i].includes('=')) {
      outputs.set(lines[i].slice(0, lines[i].indexOf('=')), lines[i].slice(lines[i].indexOf('=') + 1));
    }
  }
  return outputs;
}

/** The environment the runner gives the action for the event (and the files it names): what runAction runs it with. */
export function actionEnvironment(
  github: FakeGitHub,
  run: ActionRun,
): { env: NodeJS.ProcessEnv; files: { output: string; summary: string }; runnerTemp: string } {
  const { event = 'pull_request', inputs, cwd, baseSha = BASE_SHA, sha = HEAD_SHA } = run;
  const runnerTemp = run.runnerTemp ?? tempDir();
  // The runner's files: the step's outputs and summary, and what sets later steps' environment, PATH and state.
  const [output, summary, environment, path, state] = ['output', 'summary', 'env', 'path', 'state'].map((name) => join(tempDir(), name));
  const files = { output, summary, env: environment, path, state };
  for (const file of Object.values(files)) writeFileSync(file, '');
  const eventFile = join(tempDir(), 'event.json');
  writeFileSync(eventFile, JSON.stringify(payloadOf(run, baseSha, sha)));
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    GITHUB_ACTIONS: 'true',
    GITHUB_EVENT_NAME: event,
    GITHUB_EVENT_PATH: eventFile,
    GITHUB_REPOSITORY: 'octo/models',
    GITHUB_SHA: sha,
    GITHUB_REF: refOf(event, run.ref, run.pullNumber),
    GITHUB_API_URL: github.url,
    GITHUB_SERVER_URL: 'https://github.com',
    GITHUB_RUN_ID: run.runId ?? '99',
    GITHUB_RUN_ATTEMPT: String(run.runAttempt ?? 1),
    RUNNER_TEMP: runnerTemp,
    GITHUB_OUTPUT: files.output,
    GITHUB_STEP_SUMMARY: files.summary,
    GITHUB_ENV: files.env,
    GITHUB_PATH: files.path,
    GITHUB_STATE: files.state,
    // The runner starts the action in the workspace.
    ...(cwd === undefined ? {} : { GITHUB_WORKSPACE: cwd }),
    ...run.env,
  };
  for (const [name, value] of Object.entries({ ...DEFAULT_INPUTS, ...inputs })) env[`INPUT_${name.toUpperCase()}`] = value;
  return { env, files, runnerTemp };
}

/** Runs the bundled action once, as the runner would for the event. */
export async function runAction(github: FakeGitHub, run: ActionRun): Promise<ActionResult> {
  const { env, files, runnerTemp } = actionEnvironment(github, run);
  const result = await runProcess(ACTION_NODE, [join(process.cwd(), 'dist/index.js')], env, run.cwd);
  const outputs = readOutputs(readFileSync(files.output, 'utf8'));
  const output = (name: string) => outputs.get(name);
  return { ...result, output, summary: readFileSync(files.summary, 'utf8'), runnerTemp };
}

/** A new file with this text in a fresh folder. */
export function writeFile(name: string, text: string): string {
  const path = join(tempDir(), name);
  writeFileSync(path, text);
  return path;
}

/**
 * A fake GitHub API (octo/models) for the tests of one file: started before them and handed to `use`,
 * emptied before each (unless `resetEach` is false: tests that build on each other's state), closed after.
 */
export function useFakeGitHub(use: (github: FakeGitHub) => void, { resetEach = true } = {}): void {
  let github: FakeGitHub;
  beforeAll(async () => {
    github = await startFakeGitHub('octo', 'models');
    use(github);
  });
  afterAll(async () => {
    await github.close();
  });
  if (resetEach) beforeEach(() => github.reset());
}

/**
 * The runs most action tests gate: 300 instances of scenario "billing", the baseline right on 3 in 4;
 * "worse" loses 15 of its right answers (-5 points, paired: over a budget of 0.02).
 */
export function regressionRuns(): { baselineRecords: EvalRecord[]; worseRecords: EvalRecord[]; baseline: string; worse: string } {
  const baselineRecords = Array.from({ length: 300 }, (_, i) =>
    record({ scenario: 'billing', id: String(i), correct: i % 4 === 0 ? 0 : 1 }),
  );
  const worseRecords = baselineRecords.map((r, i) => (i % 20 === 1 ? { ...r, correct: 0 } : r));
  return {
    baselineRecords,
    worseRecords,
    baseline: writeLines('baseline.jsonl', baselineRecords),
    worse: writeLines('worse.jsonl', worseRecords),
  };
}

/** A policy named "support" whose accuracy may drop 0.02 at most: the worse run's 5 points are over it. */
export const STRICT_POLICY =
  'version: 1\nname: support\nsettings:\n  resamples: 200\nchecks:\n  - metric: accuracy\n    max_regression: 0.02\n';
