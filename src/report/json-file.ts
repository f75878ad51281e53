import { open, type FileHandle } from 'node:fs/promises';

/*
 * A large JSON document written a piece at a time: a report of 20,000 scenarios is a few hundred MB of
 * text, which JSON.stringify would hold whole (and writeFile once more, encoded).
 */

/** Text is handed to the file in pieces of about this many characters. */
const PIECE = 1 << 20;

/** Writes text to a file through one buffer, a piece at a time. */
class PieceWriter {
  private pending = '';
  constructor(private readonly handle: FileHandle) {}

  async write(text: string): Promise<void> {
    this.pending += text;
    if (this.pending.length >= PIECE) await this.flush();
  }

  async flush(): Promise<void> {
    if (this.pending === '') return;
    const text = this.pending;
    this.pending = '';
    await this.handle.write(text);
  }
}

/** An object JSON.stringify writes member by member (not an array, nor one with its own toJSON). */
function isMembers(value: unknown): value is Record<string, unknown> {
  return (
    typeof value === 'object' && value !== null && !Array.isArray(value) && typeof (value as { toJSON?: unknown }).toJSON !== 'function'
  );
}

/** What JSON.stringify leaves out of an object. */
const omitted = (value: unknown) => value === undefined || typeof value === 'function' || typeof value === 'symbol';

/** `value` as JSON.stringify(value, null, 2) writes it at `indent`, objects down to `levels` deep member by member. */
async function writeValue(writer: PieceWriter, value: unknown, indent: string, levels: number): Promise<void> {
  const members = isMembers(value) ? Object.keys(value).filter((key) => !omitted(value[key])) : undefined;
  if (levels === 0 || !members || members.length === 0) {
    // JSON strings hold no raw line break: every one is a line of the layout, indented one level more here.
    await writer.write(JSON.stringify(value, null, 2).replaceAll('\n', `\n${indent}`));
    return;
  }
  const inner = `${indent}  `;
  await writer.write('{\n');
  for (const [index, key] of members.entries()) {
    await writer.write(`${inner}${JSON.stringify(key)}: `);
    await writeValue(writer, (value as Record<string, unknown>)[key], inner, levels - 1);
    await writer.write(index < members.length - 1 ? ',\n' : '\n');
  }
  await writer.write(`${indent}}`);
}

/**
 * Writes `${JSON.stringify(value, null, 2)}\n` to `file`, the same bytes, objects `levels` deep written
 * member by member: only one member's text (a scenario's metrics) is held at a time.
 */
export async function writeJsonFile(file: string, value: unknown, levels = 3): Promise<void> {
  const handle = await open(file, 'w');
  try {
    const writer = new PieceWriter(handle);
    await writeValue(writer, value, '', levels);
    await writer.write('\n');
    await writer.flush();
  } finally {
    await handle.close();
  }
}
