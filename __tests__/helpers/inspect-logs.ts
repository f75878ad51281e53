import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

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
