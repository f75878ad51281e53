/** Bad input: names the file, the line and the field. The CLI turns it into exit code 2. */
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
