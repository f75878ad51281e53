import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { constants as zlibConstants, crc32, deflateRawSync } from 'node:zlib';

/*
 * Inspect AI logs for tests: written with Python's zipfile (the module Inspect writes them with), and
 * read back with it, independently of the importer under test.
 */

const WRITER = join(process.cwd(), '__tests__/helpers/write-eval-log.py');

/** Writes a `.eval` archive of the given entries (name, text), in order, deflated. */
export function writeEvalLog(file: string, entries: Array<[string, string]>): string {
  execFileSync('python3', [WRITER, file], { input: JSON.stringify(entries) });
  return file;
}

/** An entry of a `.eval` archive, read by Python's zipfile (deflated or stored entries only). */
export function entryText(file: string, name: string): string {
  return execFileSync(
    'python3',
    ['-c', 'import sys, zipfile; sys.stdout.write(zipfile.ZipFile(sys.argv[1]).read(sys.argv[2]).decode())', file, name],
    {
      encoding: 'utf8',
    },
  );
}

interface Header {
  status: string;
  eval: { task: string; model: string };
  results?: { scores: Array<{ name: string; scorer: string; metrics: Record<string, { value: number }> }> };
}

/** A log's header: header.json of a `.eval`, the top level of a `.json`. */
export function headerOf(file: string): Header {
  return JSON.parse(file.endsWith('.eval') ? entryText(file, 'header.json') : readFileSync(file, 'utf8')) as Header;
}

/** JSON text in which the string "NaN!" stands for Python's NaN literal, as Inspect writes it. */
export const withNaN = (value: unknown) => JSON.stringify(value, null, 2).replaceAll('"NaN!"', 'NaN');

export const MODEL = 'mockllm/model';

/** A header.json of a run of `task` on MODEL. */
export function header(
  task: string,
  fields: { status?: string; created?: string; epochs?: number; sampleIds?: number[]; model?: string; error?: string },
) {
  const { status = 'success', created = '2026-11-20T10:00:00+00:00', epochs = 1, sampleIds, model = MODEL, error } = fields;
  return {
    version: 2,
    status,
    eval: {
      run_id: 'run',
      created,
      task,
      task_id: 'id',
      dataset: { name: task, samples: sampleIds?.length ?? 0, ...(sampleIds ? { sample_ids: sampleIds } : {}) },
      model,
      config: { epochs },
    },
    plan: { name: 'plan', steps: [{ solver: 'generate', params: {} }] },
    ...(error ? { error: { message: error, traceback: 'Traceback ...' } } : {}),
  };
}

/** A sample of MODEL's run in Inspect's log shape (its events left empty). */
export function sample(id: number | string, epoch: number, scores: Record<string, unknown>, fields: Record<string, unknown> = {}) {
  const reply = `reply ${id}.${epoch}`;
  return {
    id,
    epoch,
    input: `question ${id}`,
    target: `answer ${id}`,
    messages: [],
    output: {
      model: 'model',
      choices: [{ message: { role: 'assistant', content: reply, source: 'generate' }, stop_reason: 'stop' }],
      completion: reply,
      usage: { input_tokens: 10, output_tokens: 1, total_tokens: 11 },
    },
    scores: Object.fromEntries(Object.entries(scores).map(([name, value]) => [name, { value, answer: reply }])),
    metadata: {},
    store: {},
    events: [],
    model_usage: { [MODEL]: { input_tokens: 30, output_tokens: 4, total_tokens: 34, input_tokens_cache_read: 6 } },
    total_time: 2.5,
    working_time: 1.25,
    attachments: {},
    ...fields,
  };
}

const MiB = 1024 * 1024;

/**
 * A deflate stream of `mebibytes` MiB of spaces, truthfully: one MiB compressed once (a sync flush ends
 * it on a byte, self-contained) and repeated, each copy followed by `padding` empty stored blocks (5
 * bytes each, decoding to nothing: a lower compression ratio), then a final empty block.
 */
function deflatedSpaces(mebibytes: number, padding: number): { data: Buffer; crc: number } {
  const chunk = Buffer.concat([
    deflateRawSync(Buffer.alloc(MiB, 32), { level: 9, finishFlush: zlibConstants.Z_SYNC_FLUSH }),
    Buffer.alloc(5 * padding).fill(Buffer.from([0x00, 0x00, 0x00, 0xff, 0xff])),
  ]);
  const spaces = Buffer.alloc(MiB, 32);
  let crc = 0;
  for (let index = 0; index < mebibytes; index++) crc = crc32(spaces, crc);
  return { data: Buffer.concat([...Array.from({ length: mebibytes }, () => chunk), Buffer.from([0x01, 0x00, 0x00, 0xff, 0xff])]), crc };
}

interface ZipMember {
  name: string;
  /** Deflated, or stored when undefined (an empty entry). */
  data?: Buffer;
  crc: number;
  size: number;
}

/** The local header and the central directory record of a member at `offset`. */
function memberRecords({ name, data, crc, size }: ZipMember, offset: number): { local: Buffer; central: Buffer } {
  const nameBytes = Buffer.from(name);
  const compressed = data?.length ?? 0;
  const local = Buffer.alloc(30 + nameBytes.length + compressed);
  local.writeUInt32LE(0x04034b50, 0);
  local.writeUInt16LE(20, 4);
  local.writeUInt16LE(data ? 8 : 0, 8); // deflated or stored
  local.writeUInt16LE(0x21, 12); // 1980-01-01
  local.writeUInt32LE(crc >>> 0, 14);
  local.writeUInt32LE(compressed, 18);
  local.writeUInt32LE(size, 22);
  local.writeUInt16LE(nameBytes.length, 26);
  nameBytes.copy(local, 30);
  data?.copy(local, 30 + nameBytes.length);
  const central = Buffer.alloc(46 + nameBytes.length);
  central.writeUInt32LE(0x02014b50, 0);
  central.writeUInt16LE(45, 4);
  central.writeUInt16LE(20, 6);
  central.writeUInt16LE(data ? 8 : 0, 10);
  central.writeUInt16LE(0x21, 14);
  central.writeUInt32LE(crc >>> 0, 16);
  central.writeUInt32LE(compressed, 20);
  central.writeUInt32LE(size, 24);
  central.writeUInt16LE(nameBytes.length, 28);
  central.writeUInt32LE(offset, 42);
  nameBytes.copy(central, 46);
  return { local, central };
}

/** The end of an archive whose directory of `count` members starts at `offset`: a zip64 end first past 65,535 members. */
function archiveEnd(count: number, directorySize: number, offset: number): Buffer {
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(Math.min(count, 0xffff), 8);
  end.writeUInt16LE(Math.min(count, 0xffff), 10);
  end.writeUInt32LE(directorySize, 12);
  end.writeUInt32LE(offset, 16);
  if (count < 0xffff) return end;
  const zip64 = Buffer.alloc(56 + 20);
  zip64.writeUInt32LE(0x06064b50, 0);
  zip64.writeBigUInt64LE(44n, 4);
  zip64.writeUInt16LE(45, 12);
  zip64.writeUInt16LE(45, 14);
  zip64.writeBigUInt64LE(BigInt(count), 24);
  zip64.writeBigUInt64LE(BigInt(count), 32);
  zip64.writeBigUInt64LE(BigInt(directorySize), 40);
  zip64.writeBigUInt64LE(BigInt(offset), 48);
  zip64.writeUInt32LE(0x07064b50, 56); // the locator: where the zip64 end is
  zip64.writeBigUInt64LE(BigInt(offset + directorySize), 64);
  zip64.writeUInt32LE(1, 72);
  return Buffer.concat([zip64, end]);
}

/**
 * Writes a zip archive (an Inspect `.eval`): a small header.json, entries that each decompress to
 * `mebibytes` MiB of spaces (sizes and CRC-32 as the data has them), and `empty` empty entries.
 */
export function writeInflatingArchive(
  file: string,
  entries: Array<{ name: string; mebibytes: number; padding?: number }>,
  empty = 0,
): string {
  const headerText = Buffer.from(JSON.stringify(header('bomb', {})));
  const members: ZipMember[] = [
    { name: 'header.json', data: deflateRawSync(headerText), crc: crc32(headerText), size: headerText.length },
    ...entries.map(({ name, mebibytes, padding = 0 }) => ({ name, ...deflatedSpaces(mebibytes, padding), size: mebibytes * MiB })),
    ...Array.from({ length: empty }, (_, index) => ({ name: `empty/${index}`, crc: 0, size: 0 })),
  ];
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const member of members) {
    const { local, central } = memberRecords(member, offset);
    locals.push(local);
    centrals.push(central);
    offset += local.length;
  }
  const directory = Buffer.concat(centrals);
  writeFileSync(file, Buffer.concat([...locals, directory, archiveEnd(members.length, directory.length, offset)]));
  return file;
}
