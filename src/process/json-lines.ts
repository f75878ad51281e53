import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { describeBytes, MAX_LINE_BYTES } from '../limits.js';
import { LineSplitter, LineTooLongError } from '../lines.js';
import { childEnvironment } from './child-env.js';
import { exitThroughHandlers } from './signals.js';

/** How long a program has to exit once its input ends, and again after SIGTERM, before it is killed. */
const GRACE_MS = 2000;

/**
 * A long-running program spoken to in JSON Lines: evalgate writes one request object per line on its
 * stdin, with an "id"; the program answers one object per line on its stdout with the same "id", in
 * any order. Started on the first request; its stderr goes to evalgate's.
 */
export class JsonLinesProcess {
  private child: ChildProcessWithoutNullStreams | undefined;
  /** Why the program answers no more: it exited, or broke the protocol (and was killed). */
  private ended: string | undefined;
  private nextId = 0;
  private readonly pending = new Map<string, { resolve: (response: Record<string, unknown>) => void; reject: (error: Error) => void }>();

  constructor(
    readonly command: string,
    /** What the program is, in messages ("the model command"). */
    private readonly role: string,
  ) {}

  /** If evalgate exits without close() (an error, Ctrl-C), the program's group must not outlive it. */
  private readonly killOnExit = () => this.signalGroup('SIGKILL');
  /** Removes the signal handlers that make a signal end evalgate through process.exit (and so through killOnExit). */
  private releaseSignals: (() => void) | undefined;

  private start(): ChildProcessWithoutNullStreams {
    // Its own process group (POSIX), so that close() also reaches the programs the shell starts.
    const child = spawn(this.command, {
      shell: true,
      stdio: ['pipe', 'pipe', 'pipe'],
      env: childEnvironment(),
      detached: process.platform !== 'win32',
    });
    process.once('exit', this.killOnExit);
    this.releaseSignals = exitThroughHandlers();
    child.stderr.on('data', (chunk: Buffer) => process.stderr.write(chunk));
    child.stdin.on('error', () => undefined); // a dead program is reported by 'exit'
    const splitter = new LineSplitter();
    child.stdout.on('data', (chunk: Buffer) => {
      if (this.ended) return;
      try {
        splitter.push(chunk, (line) => this.answer(line));
      } catch (error) {
        if (!(error instanceof LineTooLongError)) throw error;
        // An answer of that size is a broken (or hostile) program: holding the line would cost its size.
        this.fail(`${this.role} wrote a line longer than ${describeBytes(MAX_LINE_BYTES)} (line ${error.line} of its output)`);
        this.signalGroup('SIGKILL');
      }
    });
    child.on('exit', (code, signal) => this.fail(`${this.role} exited (${signal ?? `code ${code}`})`));
    return child;
  }

  /** One line of the program's output: the answer to a request, by its "id". */
  private answer(line: string): void {
    let response: Record<string, unknown>;
    try {
      response = JSON.parse(line) as Record<string, unknown>;
    } catch {
      process.stderr.write(`evalgate: ${this.role} wrote a line that is not JSON: ${line.slice(0, 200)}\n`);
      return;
    }
    const waiting = this.pending.get(String(response.id));
    if (!waiting) return;
    this.pending.delete(String(response.id));
    waiting.resolve(response);
  }

  /** The program is of no more use: every waiting request and every later one fails with `reason` (the first one given). */
  private fail(reason: string): void {
    this.ended ??= reason;
    for (const waiting of this.pending.values()) waiting.reject(new Error(this.ended));
    this.pending.clear();
  }

  /** Sends a request (an "id" is added) and resolves with the program's answer to it. */
  request(payload: Record<string, unknown>, signal?: AbortSignal): Promise<Record<string, unknown>> {
    this.child ??= this.start();
    if (this.ended) return Promise.reject(new Error(this.ended));
    const id = String(this.nextId++);
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      signal?.addEventListener('abort', () => {
        if (this.pending.delete(id)) reject(new Error('timed out'));
      });
      this.child!.stdin.write(`${JSON.stringify({ id, ...payload })}\n`);
    });
  }

  /**
   * Ends the program's input and gives it GRACE_MS to exit, then SIGTERM and GRACE_MS more; then kills
   * whatever is left of its process group: a program that ignores SIGTERM, or one the shell started that
   * outlived it (`cd dir && node model.mjs`), would hold evalgate's pipes open and outlive the run.
   */
  async close(): Promise<void> {
    const child = this.child;
    if (!child) return;
    child.stdin.end();
    if (!(await this.exitWithin(GRACE_MS))) {
      this.signalGroup('SIGTERM');
      await this.exitWithin(GRACE_MS);
    }
    this.signalGroup('SIGKILL');
    process.removeListener('exit', this.killOnExit);
    this.releaseSignals?.();
    child.stdout.destroy();
    child.stderr.destroy();
  }

  /** True once the program (the shell) has exited or been killed, false if it has not within `ms`. */
  private exitWithin(ms: number): Promise<boolean> {
    if (this.ended) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(false), ms);
      this.child!.once('exit', () => {
        clearTimeout(timer);
        resolve(true);
      });
    });
  }

  /** Signals the program's whole process group (on Windows, the program alone). */
  private signalGroup(signal: NodeJS.Signals): void {
    const { pid } = this.child!;
    try {
      if (process.platform === 'win32' || pid === undefined) this.child!.kill(signal);
      else process.kill(-pid, signal);
    } catch {
      // Nothing is left to signal.
    }
  }
}
