import { describe, expect, it } from '@jest/globals';
import { importLmEval } from '../src/importers/lm-eval.js';
import { copyFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir, writeLines } from './helpers/records.js';

const FIXTURES = '__tests__/fixtures/lm-eval';

describe('importing lm-evaluation-harness samples', () => {
  it('keeps one record per document and filter for a task with repeats: lm-eval scores its own reduction of them', async () => {
    // No real samples file of a task with `repeats` is at hand; this one follows lm-eval's format (its
    // evaluator logs, per document and filter, `resps` as each request's K generations and one score
    // of `filtered_resps`), shaped like gsm8k-cot-self-consistency: 4 generations, filters
    // score-first (take_first) and maj@4 (majority_vote).
    const generations = ['... #### 17', '... #### 18', '... #### 18', '... #### 16'];
    const line = (filter: string, answer: string, score: number) => ({
      doc_id: 0,
      doc: { question: 'How many?', answer: '#### 18' },
      target: '18',
      arguments: { gen_args_0: { arg_0: 'Q: How many?\nA:', arg_1: { do_sample: true, temperature: 0.2 } } },
      resps: [generations],
      filtered_resps: [answer],
      filter,
      metrics: ['exact_match'],
      exact_match: score,
    });
    const dir = tempDir();
    const file = join(dir, 'samples_gsm8k-cot-self-consistency_2026-12-01T00-00-00.000000.jsonl');
    writeFileSync(file, [line('score-first', '17', 0), line('maj@4', '18', 1)].map((entry) => JSON.stringify(entry)).join('\n'));
    const records = await importLmEval(file);
    expect(records.map(({ scenario, id, sample, correct, prediction }) => ({ scenario, id, sample, correct, prediction }))).toEqual([
      { scenario: 'gsm8k-cot-self-consistency/score-first', id: '0', sample: undefined, correct: 0, prediction: '17' },
      { scenario: 'gsm8k-cot-self-consistency/maj@4', id: '0', sample: undefined, correct: 1, prediction: '18' },
    ]);
  });
  it('reads a multiple-choice task with the softmax confidence of the chosen answer', async () => {
    const records = await importLmEval(`${FIXTURES}/llama-3-8b-bias-classification-2024-06-17T15-44-37.867068`);
    expect(records).toHaveLength(609);
    // Sample 0 by hand from the file: loglikelihoods -0.9797919988632202 (" A") and -0.8547919988632202 (" B"),
    // target "B", acc 1.0 -> prediction B, confidence e^-0.85479 / (e^-0.97979 + e^-0.85479).
    const [first] = records;
    expect(first).toMatchObject({ scenario: 'bias_classification', id: '0', references: ['B'], correct: 1, prediction: 'B' });
    expect(first.confidence).toBeCloseTo(
      Math.exp(-0.8547919988632202) / (Math.exp(-0.9797919988632202) + Math.exp(-0.8547919988632202)),
      12,
    );
    expect(String(first.input)).toMatch(/^Given a sentence, predict if the sentence contains a bias or not\.\nSentence: Sierra Leone/);
    // The mean of the per-sample acc is the task's acc in results_*.json: 0.5106732348111659.
    expect(records.reduce((sum, record) => sum + (record.correct ?? 0), 0) / records.length).toBeCloseTo(0.5106732348111659, 12);
  });

  it('reads the older layout (no filter or metrics keys) the same way', async () => {
    const records = await importLmEval(`${FIXTURES}/llama-3-8b-bias-classification-2024-06-17T12-20-26.826621`);
    expect(records).toHaveLength(609);
    // Sample 0: loglikelihoods -1.226333737373352 and -0.35133376717567444.
    expect(records[0].confidence).toBeCloseTo(1 / (1 + Math.exp(-1.226333737373352 + 0.35133376717567444)), 12);
  });

  it('reads only the newest samples file of each task in a folder, as it picks the newest results file', async () => {
    // Two runs of bias_classification in one output folder (lm-eval adds a file per run).
    const dir = tempDir();
    for (const run of ['2024-06-17T12-20-26.826621', '2024-06-17T15-44-37.867068']) {
      const name = `samples_bias_classification_${run}.json`;
      copyFileSync(`${FIXTURES}/llama-3-8b-bias-classification-${run}/${name}`, join(dir, name));
    }
    const records = await importLmEval(dir);
    expect(records).toHaveLength(609);
    expect(records).toEqual(await importLmEval(`${FIXTURES}/llama-3-8b-bias-classification-2024-06-17T15-44-37.867068`));
  });

  it('refuses samples whose metric is computed over the whole task, saying why', async () => {
    await expect(importLmEval(`${FIXTURES}/gemma-2b-masakhaner`)).rejects.toThrow(
      /samples_masakhaner_luo_prompt_1_2026-01-16T15-23-47\.285735\.jsonl:1: sample 0 has no per-sample score in \[0, 1\]: its metrics \(f1\) are computed over the whole task/,
    );
    await expect(importLmEval(`${FIXTURES}/llama-3-8b-instruct-gsm8k`)).rejects.toThrow(/no samples_<task>_<timestamp>\.jsonl files/);
  });

  it('never takes a numeric target (the gold label) for the score', async () => {
    // A cola-like sample: the gold label index as target, mcc stored as a (gold, prediction) pair.
    const sample = {
      doc_id: 0,
      doc: { sentence: 'The book was by John written.', label: 1 },
      target: 1,
      arguments: {},
      resps: [],
      filtered_resps: [],
      filter: 'none',
      doc_hash: 'h',
      prompt_hash: 'h',
      target_hash: 'h',
    };
    const cola = writeLines('samples_cola_2024-06-17T12-00-00.000000.jsonl', [{ ...sample, metrics: ['mcc'], mcc: [1, 0] }]);
    await expect(importLmEval(cola)).rejects.toThrow(
      `${cola}:1: sample 0 has no per-sample score in [0, 1]: its metrics (mcc) are computed over the whole task`,
    );
    // Older files have no `metrics` list: the task's metrics are the keys besides lm-eval's own fields.
    const older = writeLines('samples_cola_2024-06-17T12-00-00.000000.jsonl', [{ ...sample, filter: undefined, mcc: [1, 0] }]);
    await expect(importLmEval(older)).rejects.toThrow(
      `${older}:1: sample 0 has no per-sample score in [0, 1]: its metrics (mcc) are computed`,
    );
    const scored = writeLines('samples_arith_2024-06-17T12-00-00.000000.jsonl', [{ ...sample, exact_match: 0 }]);
    expect((await importLmEval(scored))[0]).toMatchObject({ correct: 0, references: ['1'] });
  });
});

describe('reading the NaN and Infinity that lm-eval (Python) writes', () => {
  it('reads bare NaN, Infinity and -Infinity as missing and leaves text in strings alone', async () => {
    const line =
      '{"doc_id": 0, "target": "Avengers: Infinity War", "arguments": {"gen_args_0": {"arg_0": "Q: \\"NaN\\" or -Infinity?", "arg_1": ""}}, "acc": 1.0, "bleu": -Infinity, "ter": NaN, "chrf": Infinity}';
    const [record] = await importLmEval(writeLines('samples_films_2024-06-17T12-00-00.000000.jsonl', [line]));
    expect(record).toMatchObject({ references: ['Avengers: Infinity War'], input: 'Q: "NaN" or -Infinity?', correct: 1 });
    // The older layout, one JSON array, the same.
    const [older] = await importLmEval(writeLines('samples_films_2024-06-17T12-00-00.000000.json', [`[${line}]`]));
    expect(older).toMatchObject({ references: ['Avengers: Infinity War'], correct: 1 });
  });

  it('reads them in a results file too', async () => {
    const { importLmEvalResults } = await import('../src/importers/lm-eval.js');
    const file = join(tempDir(), 'results_2024-06-17T12-00-00.000000.json');
    writeFileSync(
      file,
      '{"results": {"films": {"alias": "Infinity War, NaN", "acc,none": 0.5, "acc_stderr,none": NaN, "loglikelihood,none": -Infinity}}, "n-samples": {"films": {"effective": 4}}}',
    );
    expect((await importLmEvalResults(file)).overall).toEqual({ 'films/acc': { value: 0.5, ci: null, n: 4 } });
    // A missing or broken results file is bad input naming the file.
    await expect(importLmEvalResults(`${file}.gone`)).rejects.toThrow(`${file}.gone: no such file`);
    writeFileSync(file, '{"results": ');
    await expect(importLmEvalResults(file)).rejects.toThrow(`${file}: not valid JSON: `);
  });
});

describe('importing lm-evaluation-harness summaries', () => {
  it('turns every "metric,filter" of results_*.json into a metric with its stderr as a 95% interval', async () => {
    const { importLmEvalResults } = await import('../src/importers/lm-eval.js');
    const report = await importLmEvalResults(`${FIXTURES}/llama-3-8b-instruct-gsm8k/results_2024-08-25T21-59-12.123082.json`);
    // From the file: exact_match,strict-match 0.7725549658832449, stderr 0.01154636331254809, 1319 samples.
    expect(Object.keys(report.overall)).toEqual([
      'gsm8k_cot_llama/exact_match/strict-match',
      'gsm8k_cot_llama/exact_match/flexible-extract',
    ]);
    const strict = report.overall['gsm8k_cot_llama/exact_match/strict-match'];
    expect(strict.value).toBe(0.7725549658832449);
    expect(strict.n).toBe(1319);
    expect(strict.ci![0]).toBeCloseTo(0.7725549658832449 - 1.959964 * 0.01154636331254809, 12);
    expect(strict.ci![1]).toBeCloseTo(0.7725549658832449 + 1.959964 * 0.01154636331254809, 12);
  });

  it('reads "N/A" stderr as no interval', async () => {
    const { importLmEvalResults } = await import('../src/importers/lm-eval.js');
    const report = await importLmEvalResults(`${FIXTURES}/gemma-2b-masakhaner/results_2026-01-16T15-23-47.285735.json`);
    expect(report.overall['masakhaner_luo_prompt_1/f1/flexible-extract']).toEqual({
      value: 0.0656270305392884,
      ci: null,
      n: expect.any(Number),
    });
  });
});
