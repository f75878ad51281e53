import type { AnnotationProperties } from '@actions/core';
import { actionsCache, type ActionContext, type ActionPort, type InputSource } from '../../src/action/context.js';
import { run as runTheAction } from '../../src/action/main.js';
import { BASE_SHA, DEFAULT_INPUTS, HEAD_SHA, payloadOf, refOf, type ActionRun } from './action.js';
import type { FakeGitHub } from './github-server.js';
import { tempDir } from './records.js';

// The HTML report loads vega and vega-lite at once (Promise.all of two import()s), which Jest's module
// linker fails the first time ("request for './accessor.js' is not in cache"): loaded here one by one.
await import('vega');
await import('vega-lite');

/*
 * The action's run() in this process: a context built from the same description of a run as the
 * bundle's tests use (helpers/action.ts), a port that records what the action says, and the local
 * stand-in for the GitHub API. The Actions cache is the real one, which is not available here (no
 * ACTIONS_* variables in the test process): tests of the cache run the bundle.
 */

export interface Annotation {
  level: 'warning' | 'error';
  message: string;
  properties: AnnotationProperties;
}

export interface InProcessResult {
  /** 1 when the step failed, as the runner reads the process's exit code. */
  code: number;
  /** Every line said, in order: info as it is, then "warning: ", "error: " (annotations) and "failed: " (the step's failure). */
  log: string;
  annotations: Annotation[];
  failures: string[];
  secrets: string[];
  output(name: string): string | undefined;
  summary: string;
  runnerTemp: string;
}

/** Inputs as the runner gives them and @actions/core reads them: trimmed, required ones refused when empty, YAML 1.2 booleans. */
function inputSource(values: Record<string, string>): InputSource {
  const getInput = (name: string, options?: { required?: boolean }) => {
    const value = values[name] ?? '';
    if (options?.required && !value) throw new Error(`Input required and not supplied: ${name}`);
    return value.trim();
  };
  const getBooleanInput = (name: string) => {
    const value = getInput(name);
    if (['true', 'True', 'TRUE'].includes(value)) return true;
    if (['false', 'False', 'FALSE'].includes(value)) return false;
    throw new TypeError(
      `Input does not meet YAML 1.2 "Core Schema" specification: ${name}\nSupport boolean input list: \`true | True | TRUE | false | False | FALSE\``,
    );
  };
  return { getInput, getBooleanInput };
}

/** A port that keeps everything the action says. */
function recordingPort() {
  const said = { lines: [] as string[], annotations: [] as Annotation[], failures: [] as string[], secrets: [] as string[], summary: '' };
  const outputs = new Map<string, string>();
  const annotate =
    (level: Annotation['level']) =>
    (message: string, properties: AnnotationProperties = {}) => {
      said.lines.push(`${level}: ${message}`);
      said.annotations.push({ level, message, properties });
    };
  const port: ActionPort = {
    info: (message) => said.lines.push(message),
    warning: annotate('warning'),
    error: annotate('error'),
    setFailed: (message) => {
      said.lines.push(`failed: ${message}`);
      said.failures.push(message);
    },
    setOutput: (name, value) => outputs.set(name, String(value)),
    setSecret: (secret) => said.secrets.push(secret),
    summary: async (markdown) => {
      said.summary += markdown;
    },
  };
  return { port, said, outputs };
}

/** The context of a run as the runner would describe it for the event (the bundle's tests get the same as its environment). */
export function contextOf(github: FakeGitHub, run: ActionRun, runnerTemp: string): ActionContext {
  const { event = 'pull_request', inputs, baseSha = BASE_SHA, sha = HEAD_SHA } = run;
  return {
    eventName: event,
    payload: payloadOf(run, baseSha, sha),
    sha,
    ref: refOf(event, run.ref, run.pullNumber),
    repo: { owner: 'octo', repo: 'models' },
    workspace: run.env?.GITHUB_WORKSPACE ?? run.cwd,
    runnerTemp,
    apiUrl: github.url,
    runUrl: () => `https://github.com/octo/models/actions/runs/${run.runId ?? '99'}`,
    run: { id: run.runId ?? '99', attempt: run.runAttempt ?? 1 },
    secrets: run.env?.OPENAI_API_KEY ? [run.env.OPENAI_API_KEY] : [],
    inputs: inputSource({ ...DEFAULT_INPUTS, ...inputs }),
    cache: actionsCache,
  };
}

/** Runs the action's run() once for the event, in the run's working directory. */
export async function runInProcess(github: FakeGitHub, run: ActionRun): Promise<InProcessResult> {
  const runnerTemp = run.runnerTemp ?? tempDir();
  const { port, said, outputs } = recordingPort();
  const directory = process.cwd();
  if (run.cwd !== undefined) process.chdir(run.cwd);
  try {
    await runTheAction(contextOf(github, run, runnerTemp), port);
  } finally {
    process.chdir(directory);
  }
  return {
    code: said.failures.length > 0 ? 1 : 0,
    log: said.lines.join('\n'),
    annotations: said.annotations,
    failures: said.failures,
    secrets: said.secrets,
    output: (name) => outputs.get(name),
    summary: said.summary,
    runnerTemp,
  };
}
