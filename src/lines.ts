import { describeBytes, MAX_LINE_BYTES } from './limits.js';

/*
 * Splitting a byte stream into lines, with a bound on a line's length: every JSON Lines reader (records
 * files, suite data, the programs spoken to in JSON Lines) goes through here. At the top of src/ like
 * errors.ts, so that every room may use it.
 */

/** A line longer than the bound: thrown as soon as its bytes so far exceed it, before the rest is read. */
export class LineTooLongError extends Error {
  constructor(
    readonly line: number,
    readonly maxBytes: number,
  ) {
    super(`line ${line} is longer than ${describeBytes(maxBytes)}, the longest line evalgate reads`);
    this.name = 'LineTooLongError';
  }
}

const NEWLINE = 0x0a;

/**
 * Cuts chunks of bytes into lines ("\n"; a "\r" before it is the reader's to drop). Each line is
 * decoded once, from its own bytes: the unfinished line at the end of a chunk is kept as a list of
 * chunks, never re-joined per chunk, so that the work is linear in the input whatever its line lengths.
 * A "\n" byte never occurs inside a multi-byte UTF-8 character, so cutting bytes there is safe.
 */
export class LineSplitter {
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private nextLine = 1;

  constructor(private readonly maxLineBytes: number = MAX_LINE_BYTES) {}

  /** The lines this chunk completes, and the number (1-based) of the first of them. Throws LineTooLongError. */
  push(chunk: Buffer): { firstLine: number; lines: string[] } {
    const firstLine = this.nextLine;
    const lines: string[] = [];
    let start = 0;
    for (let end = chunk.indexOf(NEWLINE); end >= 0; end = chunk.indexOf(NEWLINE, start)) {
      this.checkLength(this.pendingBytes + end - start);
      if (this.pendingBytes === 0) {
        lines.push(chunk.toString('utf8', start, end));
      } else {
        this.pending.push(chunk.subarray(start, end));
        lines.push(Buffer.concat(this.pending).toString('utf8'));
        this.pending = [];
        this.pendingBytes = 0;
      }
      this.nextLine++;
      start = end + 1;
    }
    if (start < chunk.length) {
      this.checkLength(this.pendingBytes + chunk.length - start);
      this.pending.push(Buffer.from(chunk.subarray(start))); // a copy: the stream may reuse its chunk
      this.pendingBytes += chunk.length - start;
    }
    return { firstLine, lines };
  }

  /** The last line, if the input did not end with "\n". */
  end(): { line: number; text: string } | undefined {
    if (this.pendingBytes === 0) return undefined;
    const text = Buffer.concat(this.pending).toString('utf8');
    this.pending = [];
    this.pendingBytes = 0;
    return { line: this.nextLine++, text };
  }

  private checkLength(bytes: number): void {
    if (bytes > this.maxLineBytes) throw new LineTooLongError(this.nextLine, this.maxLineBytes);
  }
}
