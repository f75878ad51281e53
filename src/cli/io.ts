/** Exit codes of every evalgate command. */
export const EXIT_OK = 0;
export const EXIT_GATE_FAILED = 1;
export const EXIT_BAD_INPUT = 2;
/** `evalgate run`: more of its calls failed than --max-failed allows (its records are written all the same). */
export const EXIT_RUN_FAILED = 1;

export interface CliIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  /** Colour the terminal report (stdout is a TTY). */
  colour?: boolean;
  /** stderr is a terminal: progress as a bar rather than log lines. */
  interactive?: boolean;
  /** EVALGATE_THREADS as set: 0 computes in one thread, 1 always in two, else two for large runs (pipeline/metrics-thread.ts). */
  threads?: string;
}

/** What a command gets: where to write, and how to end with another exit code than 0. */
export interface CommandContext {
  io: CliIo;
  setExitCode: (code: number) => void;
}

/** A policy's warnings (what it may not mean, its deprecated keys: file, line, how to migrate) on stderr; the policy is read all the same. */
export function printPolicyWarnings(io: CliIo, warnings: string[], escape: (text: string) => string): void {
  for (const warning of warnings) io.stderr(`warning: ${escape(warning)}\n`);
}
