import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createInterface } from 'node:readline';

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

  private start(): ChildProcessWithoutNullStreams {
    const child = spawn(this.command, { shell: true, stdio: ['pipe', 'pipe', 'pipe'] });
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

  /** Ends the program's input and waits (up to 2 s, then kills it) for it to exit. */
  async close(): Promise<void> {
    const child = this.child;
    if (!child || this.exited) return;
    child.stdin.end();
    await new Promise((resolve) => {
      child.once('exit', resolve);
      setTimeout(() => child.kill(), 2000).unref();
    });
  }
}
