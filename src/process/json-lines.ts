import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createInterface } from 'node:readline';
import { childEnvironment } from './child-env.js';

/** How long a program has to exit once its input ends, and again after SIGTERM, before it is killed. */
const GRACE_MS = 2000;

/**
 * A long-running program spoken to in JSON Lines: evalgate writes one request object per line on its
 * stdin, with an "id"; the program answers one object per line on its stdout with the same "id", in
 * any order. Started on the first request; its stderr goes to evalgate's.
 */
export class JsonLinesProcess {
  private child: ChildProcessWithoutNullStreams | undefined;
  private exited: string | undefined;
  private nextId = 0;
  private readonly pending = new Map<string, { resolve: (response: Record<string, unknown>) => void; reject: (error: Error) => void }>();

  constructor(
    readonly command: string,
    /** What the program is, in messages ("the model command"). */
    private readonly role: string,
  ) {}

  /** If evalgate exits without close() (an error, Ctrl-C), the program's group must not outlive it. */
  private readonly killOnExit = () => this.signalGroup('SIGKILL');

  private start(): ChildProcessWithoutNullStreams {
    // Its own process group (POSIX), so that close() also reaches the programs the shell starts.
    const child = spawn(this.command, {
      shell: true,
      stdio: ['pipe', 'pipe', 'pipe'],
      env: childEnvironment(),
      detached: process.platform !== 'win32',
    });
    process.once('exit', this.killOnExit);
    child.stderr.on('data', (chunk: Buffer) => process.stderr.write(chunk));
    child.stdin.on('error', () => undefined); // a dead program is reported by 'exit'
    createInterface({ input: child.stdout }).on('line', (line) => {
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
    });
    child.on('exit', (code, signal) => {
      this.exited = `${this.role} exited (${signal ?? `code ${code}`})`;
      for (const waiting of this.pending.values()) waiting.reject(new Error(this.exited));
      this.pending.clear();
    });
    return child;
  }

  /** Sends a request (an "id" is added) and resolves with the program's answer to it. */
  request(payload: Record<string, unknown>, signal?: AbortSignal): Promise<Record<string, unknown>> {
    this.child ??= this.start();
    if (this.exited) return Promise.reject(new Error(this.exited));
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
    child.stdout.destroy();
    child.stderr.destroy();
  }

  /** True once the program (the shell) has exited, false if it has not within `ms`. */
  private exitWithin(ms: number): Promise<boolean> {
    if (this.exited) return Promise.resolve(true);
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
