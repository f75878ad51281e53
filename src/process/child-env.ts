/*
 * The environment of the programs evalgate starts (a model or toxicity command, the action's
 * eval-command): evalgate's own, less what the Actions runner gives the action alone: its inputs
 * (INPUT_*, the token among them), the runtime's credentials and service URLs, and the paths of the
 * runner's command files (outputs, environment, PATH, job summary, state), so that a program left
 * running cannot set the action's outputs (`verdict=pass`) after the action wrote them. Everything
 * else (OPENAI_API_KEY, PATH, the other GITHUB_* values, ...) is passed on. This keeps these from
 * being handed over by accident, no more: a program running as the same user can read them from
 * /proc/$PPID/environ.
 */

const RUNNER_SECRETS = new Set([
  'ACTIONS_RUNTIME_TOKEN',
  'ACTIONS_ID_TOKEN_REQUEST_TOKEN',
  'ACTIONS_ID_TOKEN_REQUEST_URL',
  'ACTIONS_RESULTS_URL',
  'ACTIONS_CACHE_URL',
  'ACTIONS_RUNTIME_URL',
]);

/** The files through which a step talks to the runner: whoever can append to them speaks for the action. */
const RUNNER_FILES = new Set(['GITHUB_OUTPUT', 'GITHUB_ENV', 'GITHUB_PATH', 'GITHUB_STEP_SUMMARY', 'GITHUB_STATE']);

export function childEnvironment(environment: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  // Upper case: names are case-insensitive on Windows.
  const kept = (name: string) => !name.startsWith('INPUT_') && !RUNNER_SECRETS.has(name) && !RUNNER_FILES.has(name);
  return Object.fromEntries(Object.entries(environment).filter(([name]) => kept(name.toUpperCase())));
}
