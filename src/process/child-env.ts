/*
 * The environment of the programs evalgate starts (a model or toxicity command, the action's
 * eval-command): evalgate's own, less what the Actions runner gives the action alone: its inputs
 * (INPUT_*, the token among them) and the runtime's credentials and service URLs. Everything else
 * (OPENAI_API_KEY, PATH, GITHUB_*, ...) is passed on. This keeps the tokens from being handed over by
 * accident, no more: a program running as the same user can read them from /proc/$PPID/environ.
 */

const RUNNER_SECRETS = new Set([
  'ACTIONS_RUNTIME_TOKEN',
  'ACTIONS_ID_TOKEN_REQUEST_TOKEN',
  'ACTIONS_ID_TOKEN_REQUEST_URL',
  'ACTIONS_RESULTS_URL',
  'ACTIONS_CACHE_URL',
  'ACTIONS_RUNTIME_URL',
]);

export function childEnvironment(environment: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  // Upper case: names are case-insensitive on Windows.
  return Object.fromEntries(
    Object.entries(environment).filter(([name]) => !name.toUpperCase().startsWith('INPUT_') && !RUNNER_SECRETS.has(name.toUpperCase())),
  );
}
