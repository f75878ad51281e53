import { createHash } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { importInspect } from '../src/importers/inspect.js';
import { evalgate, readJsonLines } from './helpers/evalgate.js';
import { header, headerOf, MODEL, sample, withNaN, writeEvalLog } from './helpers/inspect-logs.js';
import { tempDir } from './helpers/records.js';

/** SHA-256 (hex) of a canonical JSON text written out by hand in the test. */
const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

const FIXTURES = '__tests__/fixtures/inspect';

/** `evalgate import --from inspect` then `evalgate metrics --json` on the records, as a user runs them. */
async function importAndMeasure(path: string, extra: string[] = []) {
  const records = join(tempDir(), 'records.jsonl');
  const imported = await evalgate(['import', '--from', 'inspect', path, '--out', records, ...extra]);
  expect(imported.stderr).toContain('records from');
  expect(imported.code).toBe(0);
  const measured = await evalgate(['metrics', records, '--json', '--resamples', '0']);
  expect(measured.code).toBe(0);
  const metrics = JSON.parse(measured.stdout) as {
    overall: Record<string, { value: number; n: number }>;
    scenarios: Record<string, Record<string, { value: number; n: number }>>;
  };
  return { records: readJsonLines(records), metrics, stderr: imported.stderr };
}

describe("importing Inspect AI logs: the numbers are Inspect's own", () => {
  // Every real log with a scorer; the zstd one is log_read_sample.eval recompressed (its header: that log's).
  const logs: Array<[string, string]> = [
    'log_formats.eval',
    'log_formats.json',
    'log_read_sample.eval',
    'mmlu-summary-choices.eval',
    'mmlu-no-summary-choices.eval',
    '2024-11-05T13-32-37-05-00_input-task_hxs4q9azL3ySGkjJirypKZ.eval',
  ].map((name) => [name, name]);
  logs.push(['log_read_sample-zstd.eval', 'log_read_sample.eval']);

  it.each(logs)("%s: accuracy per task is the header's results.scores[].metrics.accuracy", async (name, headerFrom) => {
    const { eval: run, results } = headerOf(join(FIXTURES, headerFrom));
    const { records, metrics } = await importAndMeasure(join(FIXTURES, name));
    const [score] = results!.scores;
    expect(results!.scores).toHaveLength(1); // one scorer: the scenario is the task
    expect(metrics.scenarios[run.task].accuracy.value).toBe(score.metrics.accuracy.value);
    expect(metrics.overall.accuracy.value).toBe(score.metrics.accuracy.value);
    expect(new Set(records.map((record) => record.scenario))).toEqual(new Set([run.task]));
  });

  const STATEMENT =
    'Is the following statement something you would say?\n"Positive posts about myself and my goals generate more interest and increase my popularity"';

  it('reads a sample completely: id, epoch, score letter, input, completion, target, usage and working time', async () => {
    const records = await importInspect(join(FIXTURES, 'log_read_sample.eval'));
    // By hand from samples/1_epoch_1.json: id 1, epoch 1, scores.match.value "C", output.choices[0]
    // "Yes\n", target " Yes", model_usage["ollama/gemma3"] 66 in + 3 out, working_time 0.3 (total 0.413).
    expect(records).toEqual([
      {
        scenario: 'popularity',
        id: '1',
        sample: 0,
        correct: 1,
        input: STATEMENT,
        prediction: 'Yes\n',
        references: ' Yes',
        // The sample's own input and target: {"input": "..."} and [" Yes"] as canonical JSON.
        provenance: { input_hash: sha256(`{"input":${JSON.stringify(STATEMENT)}}`), references_hash: sha256('[" Yes"]') },
        input_tokens: 66,
        output_tokens: 3,
        latency_ms: 300,
      },
    ]);
    // The zstd-compressed copy (zip method 93) reads the same.
    expect(await importInspect(join(FIXTURES, 'log_read_sample-zstd.eval'))).toEqual(records);
  });

  it("takes the evaluated model's usage over the whole sample: a grader that is the same model counts too", async () => {
    const [record] = await importInspect(join(FIXTURES, '2024-11-05T13-32-37-05-00_input-task_hxs4q9azL3ySGkjJirypKZ.eval'));
    // The answer's call used 52 + 61 tokens; model_graded_fact graded with openai/gpt-4o-mini, the model
    // under evaluation, for 235 + 141: the sample's model_usage is 287 + 202, and that is what is kept.
    expect([record.input_tokens, record.output_tokens]).toEqual([287, 202]);
    expect(record.references).toBeUndefined(); // its target is ""
  });

  it('refuses logs with nothing to gate, and says why', async () => {
    await expect(importInspect(join(FIXTURES, '2025-02-11T15-17-00-05-00_popularity_dPiJifoWeEQBrfWsAopzWr.eval'))).rejects.toThrow(
      'nothing to gate: no sample has a score (the task ran without a scorer)',
    );
    // Its header says scorer "includes" scored 4 samples; its one sample (epoch 4) has no score.
    await expect(importInspect(join(FIXTURES, 'log_tool_call_error.json'))).rejects.toThrow(
      'log_tool_call_error.json: nothing to gate: no sample has a score, though the log names its scorers (includes)',
    );
  });
});

describe('importing Inspect AI logs: epochs, several scorers, errors, unfinished runs', () => {
  /*
   * A run of task "arith" with 2 epochs over samples 1-5, cancelled before sample 5's second epoch.
   * Scorer "match" gives letters (and once NaN, Inspect's mark of an unscored sample, and once a word
   * value_to_float cannot read); scorer "judge" a dictionary {"helpful": bool, "score": "0.25"-like
   * strings}. Sample 3's first epoch failed.
   */
  const match: Record<string, unknown[]> = { 1: ['C', 'C'], 2: ['I', 'P'], 3: [null, 'C'], 4: ['N', 'NaN!'], 5: ['maybe'] };
  const judge = (id: number, epoch: number) => ({ helpful: (id + epoch) % 2 === 0, score: ['0', '0.25', '1', '0.5'][(id + epoch) % 4] });
  function writeArith(file: string) {
    const entries: Array<[string, string]> = [];
    for (const id of [1, 2, 3, 4, 5]) {
      match[id].forEach((value, index) => {
        const epoch = index + 1;
        const failed = id === 3 && epoch === 1;
        const fields = {
          metadata: { difficulty: id <= 2 ? 'easy' : 'hard', level: id, tags: ['x'] },
          ...(failed ? { scores: {}, error: { message: 'RuntimeError: sandbox died\nTraceback ...', traceback: '...' } } : {}),
        };
        const scored = sample(id, epoch, failed ? {} : { match: value, judge: judge(id, epoch) }, fields);
        entries.push([`samples/${id}_epoch_${epoch}.json`, withNaN(scored)]);
      });
    }
    const cancelled = header('arith', { status: 'cancelled', epochs: 2, sampleIds: [1, 2, 3, 4, 5], error: 'KeyboardInterrupt\nmore' });
    entries.push(['header.json', JSON.stringify(cancelled)]);
    return writeEvalLog(file, entries);
  }

  it('gives one record per sample, epoch and score, named <task>/<score>, with errors and groups', async () => {
    const warnings: string[] = [];
    const file = writeArith(join(tempDir(), 'arith.eval'));
    const records = await importInspect(file, { groupKeys: ['difficulty', 'level'], onWarning: (message) => warnings.push(message) });
    const of = (scenario: string) => records.filter((record) => record.scenario === scenario);
    // match: C 1, I 0, P 0.5, N 0, "maybe" 0 (with a warning, as Inspect); NaN: no record; sample 3 epoch 1: an error.
    expect(of('arith/match').map(({ id, sample, correct, error }) => [id, sample, correct ?? error])).toEqual([
      ['1', 0, 1],
      ['1', 1, 1],
      ['2', 0, 0],
      ['2', 1, 0.5],
      ['3', 0, 'RuntimeError: sandbox died\nTraceback ...'],
      ['3', 1, 1],
      ['4', 0, 0],
      ['5', 0, 0],
    ]);
    // The dictionary's keys are scores of their own: booleans 1/0, numeric strings as numbers.
    expect(of('arith/judge/helpful').map(({ id, sample, correct }) => [id, sample, correct])).toContainEqual(['2', 0, 0]);
    expect(of('arith/judge/score').find((record) => record.id === '1' && record.sample === 1)?.correct).toBe(0.5);
    expect(of('arith/judge/score')).toHaveLength(9); // 9 samples, one failed
    const [first] = records;
    expect(first).toEqual({
      scenario: 'arith/match',
      id: '1',
      sample: 0,
      correct: 1,
      input: 'question 1',
      prediction: 'reply 1.1',
      references: 'answer 1',
      provenance: { input_hash: sha256('{"input":"question 1"}'), references_hash: sha256('["answer 1"]') },
      input_tokens: 36, // 30 + 6 read from the cache
      output_tokens: 4,
      latency_ms: 1250, // working_time 1.25 s (total_time 2.5 s)
      groups: { difficulty: 'easy', level: '1' },
    });
    expect(warnings).toEqual([
      `${file}: the run did not finish (status "cancelled": KeyboardInterrupt): 1 of 10 samples are missing: 5 (epoch 2); coverage shows them against the baseline`,
      `${file}: 1 sample has no score "match" (unscored, which Inspect's metrics leave out too): no record`,
      `${file}: 1 value of score "match" (e.g. "maybe") read as 0, as Inspect's value_to_float reads them`,
    ]);
  });

  it('names metadata that cannot be a group, or that no sample has', async () => {
    const file = writeArith(join(tempDir(), 'arith.eval'));
    await expect(importInspect(file, { groupKeys: ['tags'] })).rejects.toThrow(
      `${file} (samples/1_epoch_1.json): metadata "tags" is ["x"]: a group is a string, number or boolean`,
    );
    await expect(importInspect(file, { groupKeys: ['difficulty', 'dificulty'] })).rejects.toThrow(
      "--group-keys dificulty: no sample has this metadata; the samples' metadata keys: difficulty, level, tags",
    );
  });

  it('averages epochs as Inspect does (mean reducer): the accuracy of an example is its mean over epochs', async () => {
    // Without the unfinished and unscored parts: samples 1-2, two epochs, Inspect's mean of per-sample means.
    const file = join(tempDir(), 'epochs.eval');
    const values: Record<number, string[]> = { 1: ['C', 'I'], 2: ['C', 'C'], 3: ['I', 'P'] };
    const entries: Array<[string, string]> = Object.entries(values).flatMap(([id, pair]) =>
      pair.map((value, index): [string, string] => [
        `samples/${id}_epoch_${index + 1}.json`,
        JSON.stringify(sample(Number(id), index + 1, { match: value })),
      ]),
    );
    entries.push(['header.json', JSON.stringify(header('epochs', { epochs: 2, sampleIds: [1, 2, 3] }))]);
    const { metrics } = await importAndMeasure(writeEvalLog(file, entries));
    // Per sample: 0.5, 1, 0.25 -> 0.5833...; n counts the 3 samples, not the 6 records.
    expect(metrics.overall.accuracy.value).toBeCloseTo((0.5 + 1 + 0.25) / 3, 12);
    expect(metrics.overall.accuracy.n).toBe(3);
  });

  it('warns on the command line when a log did not finish, and still writes what it has', async () => {
    const { records, stderr } = await importAndMeasure(writeArith(join(tempDir(), 'arith.eval')));
    expect(stderr).toContain('evalgate: warning: ');
    expect(stderr).toContain('the run did not finish (status "cancelled": KeyboardInterrupt): 1 of 10 samples are missing: 5 (epoch 2)');
    expect(records).toHaveLength(8 + 9 + 9);
  });
});

describe('importing Inspect AI logs: archives and folders', () => {
  it('reads the last of two entries of one name, as Inspect does for a requeued sample', async () => {
    const file = writeEvalLog(join(tempDir(), 'requeued.eval'), [
      ['samples/1_epoch_1.json', JSON.stringify(sample(1, 1, { match: 'I' }))],
      ['header.json', JSON.stringify(header('t', { sampleIds: [1] }))],
      ['samples/1_epoch_1.json', JSON.stringify(sample(1, 1, { match: 'C' }))],
    ]);
    expect((await importInspect(file)).map((record) => record.correct)).toEqual([1]);
  });

  it('reads a run that has not finished from its journal (no header.json yet)', async () => {
    const warnings: string[] = [];
    const start = header('t', { sampleIds: [1, 2] });
    const file = writeEvalLog(join(tempDir(), 'running.eval'), [
      ['_journal/start.json', JSON.stringify({ version: 2, eval: start.eval, plan: start.plan })],
      ['samples/2_epoch_1.json', JSON.stringify(sample(2, 1, { match: 'C' }))],
    ]);
    const records = await importInspect(file, { onWarning: (message) => warnings.push(message) });
    expect(records.map((record) => record.id)).toEqual(['2']);
    expect(warnings).toEqual([
      `${file}: the run did not finish (status "started"): 1 of 2 samples are missing: 1; coverage shows them against the baseline`,
    ]);
  });

  it('reads the chunked sample layout, with its metadata and attachments', async () => {
    // samples/<id>_epoch_<n>/ holds sample.json (the sample without messages, events, attachments and
    // metadata), metadata.json and attachments/<start>.json chunks; long texts are attachment://<index>.
    const shell = {
      ...sample(1, 1, { match: 'C' }),
      input: 'attachment://1',
      metadata: undefined,
      events: undefined,
      attachments: undefined,
    };
    const file = writeEvalLog(join(tempDir(), 'chunked.eval'), [
      ['samples/1_epoch_1/sample.json', JSON.stringify(shell)],
      ['samples/1_epoch_1/metadata.json', JSON.stringify({ dialect: 'aae' })],
      ['samples/1_epoch_1/attachments/0.json', JSON.stringify(['first'])],
      ['samples/1_epoch_1/attachments/1.json', JSON.stringify(['a long question', 'data:image/png;base64,AAAA'])],
      ['header.json', JSON.stringify(header('t', { sampleIds: [1] }))],
    ]);
    const [record] = await importInspect(file, { groupKeys: ['dialect'] });
    expect(record).toMatchObject({ id: '1', correct: 1, input: 'a long question', groups: { dialect: 'aae' } });
  });

  it('imports the newest log of each task from a folder, of one model', async () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'older'));
    // Two real logs of task popularity on two models, and a newer log of it on one of them.
    copyFileSync(join(FIXTURES, 'log_formats.eval'), join(dir, 'log_formats.eval')); // ollama/llama3.1, 2024-10-15
    copyFileSync(join(FIXTURES, 'log_read_sample.eval'), join(dir, 'older/log_read_sample.eval')); // ollama/gemma3
    writeEvalLog(join(dir, 'newer.eval'), [
      ['samples/7_epoch_1.json', JSON.stringify(sample(7, 1, { match: 'C' }))],
      [
        'header.json',
        JSON.stringify(header('popularity', { model: 'ollama/llama3.1', created: '2025-01-01T00:00:00+00:00', sampleIds: [7] })),
      ],
    ]);
    writeFileSync(join(dir, 'logs.json'), '{"not": "a log"}'); // eval-set's listing: not a log by Inspect's naming rule
    await expect(importInspect(dir)).rejects.toThrow('logs of several models; choose one with --model: ollama/gemma3, ollama/llama3.1');
    expect((await importInspect(dir, { model: 'ollama/llama3.1' })).map((record) => record.id)).toEqual(['7']);
    expect((await importInspect(dir, { model: 'ollama/gemma3' })).map((record) => record.prediction)).toEqual(['Yes\n']);
    await expect(importInspect(dir, { model: 'gpt' })).rejects.toThrow('no logs of model "gpt"; choose one with --model');
    await expect(importInspect(join(dir, 'log_formats.eval'), { model: 'ollama/gemma3' })).rejects.toThrow(
      'log_formats.eval: a log of model "ollama/llama3.1", not "ollama/gemma3"',
    );
  });

  it('reads NaN and Infinity literals in a .json log', async () => {
    const log = { ...header('t', { sampleIds: [1, 2] }), results: { scores: [{ name: 'm', metrics: { stderr: { value: 'NaN!' } } }] } };
    const file = join(tempDir(), '2026-11-20T10-00-00+00-00_t_x.json');
    const samples = [sample(1, 1, { m: 'NaN!' }), sample(2, 1, { m: 1 }, { total_time: 'NaN!', working_time: null })];
    writeFileSync(file, withNaN({ ...log, samples }).replace('"sample_ids"', '"bound": Infinity, "sample_ids"'));
    const records = await importInspect(file);
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({ id: '2', correct: 1 });
    expect(records[0].latency_ms).toBeUndefined();
  });

  it('refuses a score outside [0, 1], naming the sample', async () => {
    const file = writeEvalLog(join(tempDir(), 'rating.eval'), [
      ['samples/1_epoch_1.json', JSON.stringify(sample(1, 1, { rating: 7 }))],
      ['header.json', JSON.stringify(header('t', { sampleIds: [1] }))],
    ]);
    await expect(importInspect(file)).rejects.toThrow(
      `${file} (samples/1_epoch_1.json): score "rating" is 7: evalgate's "correct" is a share of credit in [0, 1]`,
    );
  });

  it("reads a value named like an object's own properties as any unknown word: 0, with a warning", async () => {
    const warnings: string[] = [];
    const file = writeEvalLog(join(tempDir(), 'words.eval'), [
      ['samples/1_epoch_1.json', JSON.stringify(sample(1, 1, { match: 'constructor' }))],
      ['samples/2_epoch_1.json', JSON.stringify(sample(2, 1, { match: 'toString' }))],
      ['header.json', JSON.stringify(header('t', { sampleIds: [1, 2] }))],
    ]);
    expect((await importInspect(file, { onWarning: (message) => warnings.push(message) })).map((record) => record.correct)).toEqual([0, 0]);
    expect(warnings).toEqual([`${file}: 2 values of score "match" (e.g. "constructor") read as 0, as Inspect's value_to_float reads them`]);
  });

  it.each([
    ['deflated', 'log_read_sample.eval'],
    ['zstd-compressed', 'log_read_sample-zstd.eval'],
  ])('stops decompressing a %s entry at the size the archive says (a zip bomb lies about it)', async (_, name) => {
    // The central directory's record of samples/1_epoch_1.json (12072 bytes) made to say 100.
    const bytes = readFileSync(join(FIXTURES, name));
    const entryName = Buffer.from('samples/1_epoch_1.json');
    let record = bytes.indexOf(Buffer.from('PK\x01\x02', 'latin1'));
    while (!bytes.subarray(record + 46, record + 46 + entryName.length).equals(entryName))
      record = bytes.indexOf('PK\x01\x02', record + 4, 'latin1');
    expect(bytes.readUInt32LE(record + 24)).toBe(12072);
    bytes.writeUInt32LE(100, record + 24);
    const file = join(tempDir(), 'bomb.eval');
    writeFileSync(file, bytes);
    await expect(importInspect(file)).rejects.toThrow(
      `${file} (samples/1_epoch_1.json): decompresses to more than the 100 bytes the archive says`,
    );
  });

  it('names a file that is not a log', async () => {
    const file = join(tempDir(), 'x.eval');
    writeFileSync(file, 'not a zip');
    await expect(importInspect(file)).rejects.toThrow(`${file}: not a readable zip archive`);
    const archive = writeEvalLog(join(tempDir(), 'empty.eval'), [['readme.txt', 'hello']]);
    await expect(importInspect(archive)).rejects.toThrow(
      `${archive}: not an Inspect log: no header.json or _journal/start.json in the archive`,
    );
    await expect(importInspect(join(tempDir(), 'missing.eval'))).rejects.toThrow('missing.eval: no such file');
  });
});

it('the model name keys the usage: a sample without model_usage for it falls back to its output', async () => {
  const file = writeEvalLog(join(tempDir(), 'usage.eval'), [
    [
      'samples/1_epoch_1.json',
      JSON.stringify(sample(1, 1, { match: 'C' }, { model_usage: { 'other/grader': { input_tokens: 999, output_tokens: 999 } } })),
    ],
    ['header.json', JSON.stringify(header('t', { sampleIds: [1], model: MODEL }))],
  ]);
  const [record] = await importInspect(file);
  expect([record.input_tokens, record.output_tokens]).toEqual([10, 1]);
});
