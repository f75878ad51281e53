import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from './records.js';
import { runProcess, type RunResult } from './run.js';

/*
 * A plain runner of the real action bundle (dist/index.js) in a child process, with the environment the Actions runner
 * sets for a pull request (number 7 of octo/models) or a push to main, against a local stand-in for
 * the GitHub REST API (github-server.ts) and, when given, for the Actions cache (cache-server.ts).
 */

export interface ActionRun {
  event: 'pull_request' | 'push';
  /** The stand-in for the GitHub API. */
  apiUrl: string;
  inputs: Record<string, string>;
  env?: NodeJS.ProcessEnv;
}

export interface ActionResult extends RunResult {
  /** An output the step set, by name. */
  output(name: string): string | undefined;
  /** The job summary it wrote. */
  summary: string;
}

export const BASE_SHA = 'b'.repeat(40);
export const HEAD_SHA = 'c'.repeat(40);

export async function runAction({ event, apiUrl, inputs, env: extraEnv = {} }: ActionRun): Promise<ActionResult> {
  const workspace = tempDir();
  const files = { output: join(workspace, 'output.txt'), summary: join(workspace, 'summary.md'), event: join(workspace, 'event.json') };
  writeFileSync(files.output, '');
  writeFileSync(files.summary, '');
  const pullRequest = { number: 7, base: { sha: BASE_SHA, ref: 'main' }, head: { sha: HEAD_SHA, ref: 'feature' }, labels: [] };
  const repository = { default_branch: 'main' };
  writeFileSync(
    files.event,
    JSON.stringify(
      event === 'pull_request'
        ? { action: 'synchronize', number: 7, pull_request: pullRequest, repository }
        : { ref: 'refs/heads/main', after: BASE_SHA, repository },
    ),
  );
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    GITHUB_ACTIONS: 'true',
    GITHUB_EVENT_NAME: event,
    GITHUB_EVENT_PATH: files.event,
    GITHUB_REPOSITORY: 'octo/models',
    GITHUB_SHA: event === 'pull_request' ? HEAD_SHA : BASE_SHA,
    GITHUB_REF: event === 'pull_request' ? 'refs/pull/7/merge' : 'refs/heads/main',
    GITHUB_API_URL: apiUrl,
    RUNNER_TEMP: workspace,
    GITHUB_OUTPUT: files.output,
    GITHUB_STEP_SUMMARY: files.summary,
    'INPUT_GITHUB-TOKEN': 'ghs_token',
    INPUT_COMMENT: 'true',
    'INPUT_SAVE-BASELINE': 'auto',
    'INPUT_FAIL-ON': 'fail',
    'INPUT_POLICY-SOURCE': 'head',
    ...extraEnv,
  };
  for (const [name, value] of Object.entries(inputs)) env[`INPUT_${name.toUpperCase()}`] = value;
  const result = await runProcess(
    process.env.EVALGATE_ACTION_NODE || process.execPath,
    [join(process.cwd(), 'dist/index.js')],
    env,
    workspace,
  );
  const outputText = readFileSync(files.output, 'utf8');
  return {
    ...result,
    output: (name) => new RegExp(`^${name}<<(.+)\\n([\\s\\S]*?)\\n\\1$`, 'm').exec(outputText)?.[2],
    summary: readFileSync(files.summary, 'utf8'),
  };
}
