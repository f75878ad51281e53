import { readFile } from 'node:fs/promises';
import { InputError } from '../errors.js';
import { parsePythonJson } from './read-json.js';
import { openZip, type ZipArchive } from './zip.js';

/*
 * Reading an Inspect AI eval log: a `.eval` archive (header.json, or _journal/start.json while the run
 * has not finished; one entry per sample and epoch: samples/<id>_epoch_<n>.json, or in the newer
 * chunked layout a folder samples/<id>_epoch_<n>/ with sample.json, metadata.json and attachments/)
 * or a `.json` log (the header's fields and a `samples` list). Each sample is cut down to the fields
 * evalgate keeps as soon as it is parsed (its events and messages can be large), with its
 * `attachment://` references resolved where they are text.
 */

export interface InspectUsage {
  input_tokens?: number;
  output_tokens?: number;
  input_tokens_cache_read?: number | null;
  input_tokens_cache_write?: number | null;
  total_cost?: number | null;
}

export interface InspectHeader {
  status?: string;
  eval?: {
    task?: string;
    model?: string;
    created?: string;
    dataset?: { samples?: number; sample_ids?: Array<string | number> };
    config?: { epochs?: number | null };
    /** The scorers and their options (newer logs; a run that has not finished has no results). */
    scorers?: Array<{ name?: string; options?: Record<string, unknown> | null }> | null;
    /** Models by role: a "grader" is the model-graded scorers' judge where they name none. */
    model_roles?: Record<string, { model?: string } | null> | null;
  };
  results?: {
    total_samples?: number;
    completed_samples?: number;
    scores?: Array<{
      name?: string;
      scorer?: string;
      params?: Record<string, unknown> | null;
      metrics?: Record<string, { value?: number | null }>;
    }>;
  } | null;
  error?: { message?: string } | null;
}

/** The fields of a sample that become a record. */
export interface InspectSample {
  id: string | number;
  epoch: number;
  input?: unknown;
  /** A multiple-choice sample's choices (the dataset's). */
  choices?: unknown;
  target?: unknown;
  output?: { completion?: unknown; choices?: Array<{ message?: { content?: unknown } }>; usage?: InspectUsage | null };
  scores?: Record<string, { value?: unknown } | null> | null;
  metadata?: Record<string, unknown> | null;
  model_usage?: Record<string, InspectUsage> | null;
  total_time?: number | null;
  working_time?: number | null;
  error?: { message?: string } | null;
}

export interface LoggedSample {
  sample: InspectSample;
  /** Where it was read, for messages: the log file and, in an archive, the entry. */
  where: string;
}

const ATTACHMENT = 'attachment://';
const MONOLITH_SAMPLE = /^samples\/[^/]+_epoch_\d+\.json$/;
const CHUNKED_SAMPLE = /^(samples\/[^/]+_epoch_\d+)\/sample\.json$/;

/** A copy of a JSON value with each `attachment://KEY` string replaced by its text (binary data URIs stay references). */
function resolveAttachments(value: unknown, content: (key: string) => string | undefined): unknown {
  if (typeof value === 'string') {
    if (!value.startsWith(ATTACHMENT)) return value;
    const text = content(value.slice(ATTACHMENT.length));
    return text === undefined || text.startsWith('data:') ? value : text;
  }
  if (Array.isArray(value)) return value.map((item) => resolveAttachments(item, content));
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, resolveAttachments(item, content)]));
  }
  return value;
}

/** The sample cut down to what evalgate keeps, its texts resolved. */
function slim(value: unknown, where: string, content: (key: string) => string | undefined): InspectSample {
  const sample = (value && typeof value === 'object' ? value : {}) as Record<string, unknown>;
  if ((typeof sample.id !== 'string' && typeof sample.id !== 'number') || !Number.isSafeInteger(sample.epoch)) {
    throw new InputError(where, undefined, 'not an Inspect sample: "id" and an integer "epoch" are required');
  }
  const output = sample.output as InspectSample['output'];
  return {
    id: sample.id,
    epoch: sample.epoch as number,
    input: resolveAttachments(sample.input, content),
    choices: resolveAttachments(sample.choices, content),
    target: resolveAttachments(sample.target, content),
    output: output && {
      completion: resolveAttachments(output.completion, content),
      choices: resolveAttachments(output.choices?.slice(0, 1), content) as NonNullable<InspectSample['output']>['choices'],
      usage: output.usage,
    },
    scores: sample.scores as InspectSample['scores'],
    metadata: sample.metadata as InspectSample['metadata'],
    model_usage: sample.model_usage as InspectSample['model_usage'],
    total_time: sample.total_time as number | null | undefined,
    working_time: sample.working_time as number | null | undefined,
    error: sample.error as InspectSample['error'],
  };
}

function parseEntry(text: string, where: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = parsePythonJson(text);
  } catch (error) {
    throw new InputError(where, undefined, `not valid JSON: ${(error as Error).message}`);
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw new InputError(where, undefined, 'expected a JSON object');
  return value as Record<string, unknown>;
}

async function entryJson(archive: ZipArchive, file: string, name: string): Promise<Record<string, unknown>> {
  return parseEntry(await archive.text(name), `${file} (${name})`);
}

/** A chunked sample's attachments: its attachments/<start>.json chunks, in order, make one list. */
async function chunkedAttachments(archive: ZipArchive, file: string, prefix: string): Promise<string[]> {
  const chunk = new RegExp(`^${prefix.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/attachments/(\\d+)\\.json$`);
  const starts = archive.names
    .map((name) => chunk.exec(name))
    .filter((match) => match !== null)
    .sort((a, b) => Number(a[1]) - Number(b[1]));
  const attachments: string[] = [];
  for (const match of starts) {
    const where = `${file} (${match[0]})`;
    const items = parsePythonJson(await archive.text(match[0]));
    if (!Array.isArray(items)) throw new InputError(where, undefined, 'expected a list of attachments');
    for (const item of items as string[]) attachments.push(item); // not push(...): any number of them
  }
  return attachments;
}

async function archiveSamples(archive: ZipArchive, file: string): Promise<LoggedSample[]> {
  const samples: LoggedSample[] = [];
  for (const name of archive.names) {
    const where = `${file} (${name})`;
    if (MONOLITH_SAMPLE.test(name)) {
      const sample = await entryJson(archive, file, name);
      const attachments = (sample.attachments ?? {}) as Record<string, string>;
      samples.push({ sample: slim(sample, where, (key) => attachments[key]), where });
      continue;
    }
    const prefix = CHUNKED_SAMPLE.exec(name)?.[1];
    if (prefix === undefined) continue;
    const text = await archive.text(name);
    const shell = parseEntry(text, where);
    if (archive.has(`${prefix}/metadata.json`)) shell.metadata = await entryJson(archive, file, `${prefix}/metadata.json`);
    const attachments = text.includes(ATTACHMENT) ? await chunkedAttachments(archive, file, prefix) : [];
    samples.push({ sample: slim(shell, where, (key) => attachments[Number(key)]), where });
  }
  return samples;
}

async function archiveHeader(archive: ZipArchive, file: string): Promise<InspectHeader> {
  if (archive.has('header.json')) return (await entryJson(archive, file, 'header.json')) as InspectHeader;
  // A run that has not finished (or was killed) has no header yet: its start is in the journal.
  if (archive.has('_journal/start.json')) return { ...(await entryJson(archive, file, '_journal/start.json')), status: 'started' };
  throw new InputError(file, undefined, 'not an Inspect log: no header.json or _journal/start.json in the archive');
}

const isArchive = (file: string) => file.endsWith('.eval');

async function jsonLog(file: string): Promise<Record<string, unknown>> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new InputError(file, undefined, code === 'ENOENT' ? 'no such file' : `cannot be read: ${(error as Error).message}`);
  }
  return parseEntry(text, file);
}

function checkedHeader(header: InspectHeader, file: string): InspectHeader {
  if (typeof header.eval?.task !== 'string') throw new InputError(file, undefined, 'not an Inspect log: no "eval.task"');
  return header;
}

/** A log's header only (its task, model, time and status), without reading the samples. */
export async function readLogHeader(file: string): Promise<InspectHeader> {
  if (!isArchive(file)) {
    const log = await jsonLog(file);
    delete log.samples;
    return checkedHeader(log as InspectHeader, file);
  }
  const archive = await openZip(file);
  try {
    return checkedHeader(await archiveHeader(archive, file), file);
  } finally {
    archive.close();
  }
}

/** A log's header and its samples, in the order the log has them. */
export async function readLog(file: string): Promise<{ header: InspectHeader; samples: LoggedSample[] }> {
  if (!isArchive(file)) {
    const { samples, ...header } = await jsonLog(file);
    if (samples !== undefined && samples !== null && !Array.isArray(samples)) {
      throw new InputError(file, undefined, '"samples" must be a list');
    }
    const logged = ((samples ?? []) as unknown[]).map((sample, index) => {
      const where = `${file} (samples[${index}])`;
      const attachments = ((sample as { attachments?: unknown })?.attachments ?? {}) as Record<string, string>;
      return { sample: slim(sample, where, (key) => attachments[key]), where };
    });
    return { header: checkedHeader(header as InspectHeader, file), samples: logged };
  }
  const archive = await openZip(file);
  try {
    const header = checkedHeader(await archiveHeader(archive, file), file);
    return { header, samples: await archiveSamples(archive, file) };
  } finally {
    archive.close();
  }
}
