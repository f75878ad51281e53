import * as cache from '@actions/cache';
import * as core from '@actions/core';
import * as github from '@actions/github';
import { tmpdir } from 'node:os';

/*
 * The action's one door to the runner: what the event and the environment say (ActionContext), where
 * what it decides goes (ActionPort), and the Actions cache behind an interface. Only this module reads
 * github.context and process.env in src/action (lint holds the others to it); the rest is handed these
 * values, so that run() is tested in the same process with a context and a port of the test's own.
 */

/** An input as @actions/core reads it: `getInput` trims and fails when a required one is empty; booleans as YAML 1.2. */
export interface InputSource {
  getInput(name: string, options?: { required?: boolean }): string;
  getBooleanInput(name: string): boolean;
}

/** Where a cache entry lives (`root/name`), and the calls on it. */
export interface ActionsCache {
  isAvailable(): boolean;
  save(root: string, name: string, key: string): Promise<void>;
  /** The key restored, or undefined when there is none; a restore that failed otherwise throws the library's reason. */
  restore(root: string, name: string, key: string, restoreKeys: string[]): Promise<string | undefined>;
}

/** What the runner says about this run: the event, the repository, and the environment's folders and URLs. */
export interface ActionContext {
  eventName: string;
  payload: Record<string, unknown>;
  sha: string;
  ref: string;
  /** Read when the API is asked (GITHUB_REPOSITORY is needed only then). */
  readonly repo: { owner: string; repo: string };
  /** GITHUB_WORKSPACE, as set (undefined when not). */
  workspace?: string;
  /** Where the run's files go: RUNNER_TEMP, or the system's temporary folder where it is unset or empty (never the checkout). */
  runnerTemp: string;
  /** GITHUB_API_URL, as set. */
  apiUrl?: string;
  /** The run's page, the commit statuses' link. */
  runUrl: () => string;
  /** GITHUB_RUN_ID and GITHUB_RUN_ATTEMPT (a re-run keeps the id, its attempt counts up), when set. */
  run?: { id: string; attempt: number };
  /** Secrets of the environment the log must mask (OPENAI_API_KEY). */
  secrets: string[];
  inputs: InputSource;
  cache: ActionsCache;
}

export type { AnnotationProperties } from '@actions/core';

/** Everything the action says: outputs, log lines, annotations, the job summary, the step's failure. */
export interface ActionPort {
  info(message: string): void;
  warning(message: string, properties?: core.AnnotationProperties): void;
  error(message: string, properties?: core.AnnotationProperties): void;
  /** Fails the step (the runner shows the message as an error). */
  setFailed(message: string): void;
  setOutput(name: string, value: string | number): void;
  setSecret(secret: string): void;
  /** Adds the markdown to the job summary. */
  summary(markdown: string): Promise<void>;
}

/**
 * Runs a cache call on `root/name`, given to @actions/cache as the bare `name`. The entry's version
 * is a hash of the path strings given, and the archive holds paths relative to GITHUB_WORKSPACE
 * (found from the working directory): with both set to `root` for the call, every job, wherever its
 * RUNNER_TEMP lies, saves and restores the same version with the same archive paths.
 */
async function inRoot<T>(root: string, call: () => Promise<T>): Promise<T> {
  const [workspace, directory] = [process.env.GITHUB_WORKSPACE, process.cwd()];
  try {
    process.chdir(root);
    process.env.GITHUB_WORKSPACE = root;
    return await call();
  } finally {
    process.chdir(directory);
    if (workspace === undefined) delete process.env.GITHUB_WORKSPACE;
    else process.env.GITHUB_WORKSPACE = workspace;
  }
}

/**
 * What @actions/cache says of a restore it could not do: it returns undefined for those as for a
 * miss, and tells them apart only in the log, as "Failed to restore: ..." (a warning, or an error
 * for a 5xx) or "Cache restore skipped: ..." (a cache-mode that permits no reads).
 */
const RESTORE_TROUBLE = /^(?:::(?:warning|error)::Failed to restore: |Cache restore skipped: )(.*)$/m;

/** A workflow command's message as written ("%", CR and LF escaped), read back. */
const commandMessage = (text: string) => text.replace(/%0D/g, '\r').replace(/%0A/g, '\n').replace(/%25/g, '%');

/** A restore whose failure, noticed as the library writes it to the log (which it still does), throws its reason. */
async function restoreEntry(root: string, name: string, key: string, restoreKeys: string[]): Promise<string | undefined> {
  let trouble: string | undefined;
  const write = process.stdout.write;
  process.stdout.write = ((chunk: string | Uint8Array, ...rest: never[]) => {
    const said = RESTORE_TROUBLE.exec(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'))?.[1];
    trouble ??= said === undefined ? undefined : commandMessage(said);
    return write.call(process.stdout, chunk, ...rest);
  }) as typeof process.stdout.write;
  try {
    const matched = await inRoot(root, () => cache.restoreCache([name], key, restoreKeys));
    if (trouble !== undefined) throw new Error(trouble);
    return matched;
  } finally {
    process.stdout.write = write;
  }
}

/** The Actions cache of @actions/cache (it reads the runner's ACTIONS_* variables and RUNNER_TEMP itself). */
export const actionsCache: ActionsCache = {
  isAvailable: () => cache.isFeatureAvailable(),
  save: async (root, name, key) => {
    await inRoot(root, () => cache.saveCache([name], key));
  },
  restore: restoreEntry,
};

/** The context of the run the runner started, from @actions/github's context and the environment. */
export function runnerContext(): ActionContext {
  const { env } = process;
  return {
    eventName: github.context.eventName,
    payload: github.context.payload,
    sha: github.context.sha,
    ref: github.context.ref,
    get repo() {
      return github.context.repo;
    },
    workspace: env.GITHUB_WORKSPACE,
    runnerTemp: env.RUNNER_TEMP || tmpdir(),
    apiUrl: env.GITHUB_API_URL,
    runUrl: () => {
      const { owner, repo } = github.context.repo;
      return `${env.GITHUB_SERVER_URL ?? 'https://github.com'}/${owner}/${repo}/actions/runs/${env.GITHUB_RUN_ID ?? ''}`;
    },
    run: env.GITHUB_RUN_ID ? { id: env.GITHUB_RUN_ID, attempt: Number(env.GITHUB_RUN_ATTEMPT) || 1 } : undefined,
    secrets: env.OPENAI_API_KEY ? [env.OPENAI_API_KEY] : [],
    inputs: { getInput: core.getInput, getBooleanInput: core.getBooleanInput },
    cache: actionsCache,
  };
}

/** The port of @actions/core: workflow commands on stdout, and the runner's output and summary files. */
export const runnerPort: ActionPort = {
  info: core.info,
  warning: core.warning,
  error: core.error,
  setFailed: core.setFailed,
  setOutput: core.setOutput,
  setSecret: core.setSecret,
  summary: async (markdown) => {
    await core.summary.addRaw(markdown).write();
  },
};

/** The context and the port, handed down together. */
export interface Job {
  context: ActionContext;
  port: ActionPort;
}
