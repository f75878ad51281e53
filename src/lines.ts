import { isAscii } from 'node:buffer';
import { describeBytes, MAX_LINE_BYTES } from './limits.js';

/*
 * Reading lines from a byte stream, the one way every JSON Lines input is read (records files, suite
 * data, the programs spoken to in JSON Lines, the lines read again by number): a bound on a line's
 * length, "\n" and "\r\n" line ends, and a byte order mark before the first line dropped (editors on
 * Windows write one). At the top of src/ like errors.ts, so that every room may use it.
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

/**
 * The bytes read from a file at a time (Node's own default for file streams). A larger chunk cost
 * twice as long to read and parse a records file: each 1 MiB chunk (and its decoded text) was memory
 * fresh from the system, faulted in page by page; 64 KiB ones reuse memory already mapped.
 */
export const READ_CHUNK_BYTES = 64 * 1024;

const NEWLINE = 0x0a;
const CARRIAGE_RETURN = 0x0d;
const BYTE_ORDER_MARK = 0xfeff;

/** Called with each line's text (without its line end) and its number, 1-based. */
export type OnLine = (text: string, line: number) => void;

export interface LineOptions {
  /** The longest line, in bytes (default MAX_LINE_BYTES). */
  maxLineBytes?: number;
  /** The lines to decode (default all): the others are counted and skipped, never decoded or kept. */
  wanted?: (line: number) => boolean;
}

/**
 * Cuts chunks of bytes into lines. Each line is decoded once, from its own bytes: the unfinished line at
 * the end of a chunk is kept as a list of chunks, never re-joined per chunk, so that the work is linear
 * in the input whatever its line lengths. A "\n" byte never occurs inside a multi-byte UTF-8 character,
 * so cutting bytes there is safe.
 */
export class LineSplitter {
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private line = 1;
  private readonly maxLineBytes: number;
  private readonly wanted: ((line: number) => boolean) | undefined;

  constructor({ maxLineBytes = MAX_LINE_BYTES, wanted }: LineOptions = {}) {
    this.maxLineBytes = maxLineBytes;
    this.wanted = wanted;
  }

  /** The number of the line the next one completed will have. */
  get nextLine(): number {
    return this.line;
  }

  /** Calls `onLine` for each line this chunk completes. Throws LineTooLongError. */
  push(chunk: Buffer, onLine: OnLine): void {
    // A chunk of ASCII bytes only (most records files) when every line is wanted: decoded once, its
    // lines cut from the text, where a character is a byte (a call per line took longer).
    const decoded = this.wanted === undefined && isAscii(chunk) ? chunk.toString('latin1') : undefined;
    let start = 0;
    for (let end = chunk.indexOf(NEWLINE); end >= 0; end = chunk.indexOf(NEWLINE, start)) {
      this.checkLength(this.pendingBytes + end - start);
      if (this.isWanted()) {
        if (this.pendingBytes === 0) {
          onLine(this.text(chunk, start, end, decoded), this.line);
        } else {
          this.pending.push(chunk.subarray(start, end));
          const joined = Buffer.concat(this.pending);
          onLine(this.text(joined, 0, joined.length), this.line);
        }
      }
      this.pending = [];
      this.pendingBytes = 0;
      this.line++;
      start = end + 1;
    }
    if (start < chunk.length) {
      this.checkLength(this.pendingBytes + chunk.length - start);
      // A copy (the stream may reuse its chunk), and only of a line that is wanted.
      if (this.isWanted()) this.pending.push(Buffer.from(chunk.subarray(start)));
      this.pendingBytes += chunk.length - start;
    }
  }

  /** Calls `onLine` for the last line, if the input did not end with a line end. */
  end(onLine: OnLine): void {
    if (this.pendingBytes === 0) return;
    if (this.isWanted()) {
      const joined = Buffer.concat(this.pending);
      onLine(this.text(joined, 0, joined.length), this.line);
    }
    this.pending = [];
    this.pendingBytes = 0;
    this.line++;
  }

  private isWanted(): boolean {
    return this.wanted === undefined || this.wanted(this.line);
  }

  /**
   * The text of a line's bytes (cut from `decoded`, the bytes' text, when a character is a byte):
   * without the "\r" of a "\r\n", and on the first line without a byte order mark.
   */
  private text(bytes: Buffer, start: number, end: number, decoded?: string): string {
    const stop = end > start && bytes[end - 1] === CARRIAGE_RETURN ? end - 1 : end;
    const text = decoded === undefined ? bytes.toString('utf8', start, stop) : decoded.slice(start, stop);
    return this.line === 1 && text.charCodeAt(0) === BYTE_ORDER_MARK ? text.slice(1) : text;
  }

  private checkLength(bytes: number): void {
    if (bytes > this.maxLineBytes) throw new LineTooLongError(this.line, this.maxLineBytes);
  }
}
