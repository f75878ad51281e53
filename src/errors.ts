/*
 * Bad input, each naming where it is: the CLI turns any of these into exit code 2, the action into a
 * failed step with the message.
 */

/** A bad data file: names the file, the line and the field. */
export class InputError extends Error {
  constructor(
    readonly file: string,
    readonly line: number | undefined,
    readonly detail: string,
  ) {
    super(line === undefined ? `${file}: ${detail}` : `${file}:${line}: ${detail}`);
    this.name = 'InputError';
  }
}

/** Bad usage found after the command line was parsed (a bad --model spec, ...): exit code 2. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

/** Every problem of a configuration file (a policy, a suite), one "file:line:col key.path: message" per line, in file order. */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(problems.join('\n'));
    this.name = 'ConfigError';
  }
}

/** Input the user can fix, as opposed to a bug. */
export function isBadInput(error: unknown): error is InputError | UsageError | ConfigError {
  return error instanceof InputError || error instanceof UsageError || error instanceof ConfigError;
}
