import { createHash } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { importHelm } from '../src/importers/helm.js';
import { computeMetrics } from '../src/metrics/compute.js';
import { buildTable } from '../src/metrics/table.js';
import { tempDir } from './helpers/records.js';

/** SHA-256 (hex) of a canonical JSON text written out by hand in the test. */
const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

describe('importing a HELM run', () => {
  it('reads the real BBQ run: scores, latency, tokens, prompt, completion, references', async () => {
    const records = await importHelm('__tests__/fixtures/helm/bbq-v3-meta_llama-3-8b');
    expect(records).toHaveLength(2);
    // By hand from per_instance_stats.json and scenario_state.json.
    expect(records[0]).toMatchObject({
      scenario: 'bbq',
      id: 'id58485',
      correct: 1,
      input_tokens: 69,
      output_tokens: 1,
      prediction: 'B',
      references: ['Cannot be determined'],
    });
    expect(records[0].latency_ms).toBeCloseTo(222.69201278686523, 9);
    expect(records[1]).toMatchObject({ id: 'id58351', correct: 0, prediction: 'A', references: ['Not known'] });
    expect(String(records[0].input)).toMatch(/^The following are multiple choice questions/);
    // Log-probabilities were 0 (max_prob 1 everywhere): no confidence is made up.
    expect(records.some((record) => 'confidence' in record)).toBe(false);
  });

  it('maps HELM perturbations to robustness or fairness and keeps a real max_prob', async () => {
    const dir = tempDir();
    mkdirSync(dir, { recursive: true });
    const stat = (name: string, mean: number, perturbation?: object) => ({
      name: { name, split: 'test', ...(perturbation ? { perturbation } : {}) },
      count: 1,
      sum: mean,
      mean,
    });
    const typos = { name: 'typos', robustness: true, fairness: false, computed_on: 'perturbed' };
    const dialect = { name: 'dialect', robustness: false, fairness: true, computed_on: 'perturbed' };
    writeFileSync(join(dir, 'run_spec.json'), JSON.stringify({ name: 'mmlu:subject=law,model=x' }));
    writeFileSync(join(dir, 'scenario_state.json'), JSON.stringify({ request_states: [] }));
    writeFileSync(
      join(dir, 'per_instance_stats.json'),
      JSON.stringify([
        { instance_id: 'i1', train_trial_index: 0, stats: [stat('exact_match', 1), stat('max_prob', 0.8)] },
        {
          instance_id: 'i1',
          train_trial_index: 0,
          perturbation: typos,
          stats: [stat('exact_match', 0, typos), stat('max_prob', 0.6, typos)],
        },
        {
          instance_id: 'i1',
          train_trial_index: 0,
          perturbation: dialect,
          stats: [stat('exact_match', 1, dialect), stat('max_prob', 0.7, dialect)],
        },
        { instance_id: 'i1', train_trial_index: 1, stats: [stat('exact_match', 0)] }, // a second train trial is not a new record
      ]),
    );
    const records = await importHelm(dir);
    expect(records.map((record) => [record.scenario, record.perturbation?.kind ?? 'original', record.correct, record.confidence])).toEqual([
      ['mmlu', 'original', 1, 0.8],
      ['mmlu', 'robustness', 0, 0.6],
      ['mmlu', 'fairness', 1, 0.7],
    ]);
    const metrics = computeMetrics(buildTable(records), { resamples: 0, seed: 1, minGroupSize: 10 }).overall;
    expect(metrics.accuracy_robust.value).toBe(0);
    expect(metrics.accuracy_fair.value).toBe(1);
  });

  it('reads the test split, as HELM summarises it, and the valid split only in a run without a test split', async () => {
    const dir = tempDir();
    const stat = (name: string, mean: number, split: string) => ({ name: { name, split }, count: 1, sum: mean, mean });
    writeFileSync(join(dir, 'run_spec.json'), JSON.stringify({ name: 'mmlu:subject=law,model=x' }));
    writeFileSync(join(dir, 'scenario_state.json'), JSON.stringify({ request_states: [] }));
    const write = (entries: object[]) => writeFileSync(join(dir, 'per_instance_stats.json'), JSON.stringify(entries));
    write([
      { instance_id: 'v1', train_trial_index: 0, stats: [stat('exact_match', 0, 'valid')] },
      { instance_id: 't1', train_trial_index: 0, stats: [stat('exact_match', 1, 'test')] },
      { instance_id: 't2', train_trial_index: 0, stats: [stat('exact_match', 0, 'test')] },
    ]);
    expect((await importHelm(dir)).map((record) => [record.id, record.correct])).toEqual([
      ['t1', 1],
      ['t2', 0],
    ]);
    write([{ instance_id: 'v1', train_trial_index: 0, stats: [stat('exact_match', 1, 'valid')] }]);
    expect((await importHelm(dir)).map((record) => [record.id, record.correct])).toEqual([['v1', 1]]);
  });

  it('reads a separate-choice run (one request per choice): the prediction is the choice HELM picked', async () => {
    const dir = tempDir();
    const stat = (name: string, mean: number) => ({ name: { name, split: 'test' }, count: 1, sum: mean, mean });
    const instance = (id: string) => ({
      id,
      input: { text: 'The capital of France is' },
      references: [
        { output: { text: 'Lyon' }, tags: [] },
        { output: { text: 'Paris' }, tags: ['correct'] },
      ],
      split: 'test',
    });
    // multiple_choice_separate_calibrated: per choice, the prompt with that choice ("original") and the choice
    // after "Answer:" alone ("calibration"); with max_tokens 0 and echo_prompt, each completion is its prompt.
    const requestState = (id: string, referenceIndex: number, mode: string) => {
      const prompt =
        mode === 'original'
          ? `The capital of France is ${['Lyon', 'Paris'][referenceIndex]}`
          : `Answer: ${['Lyon', 'Paris'][referenceIndex]}`;
      return {
        instance: instance(id),
        reference_index: referenceIndex,
        request_mode: mode,
        train_trial_index: 0,
        request: { prompt, max_tokens: 0, echo_prompt: true },
        result: { success: true, completions: [{ text: prompt }] },
      };
    };
    writeFileSync(join(dir, 'run_spec.json'), JSON.stringify({ name: 'capitals:model=x' }));
    writeFileSync(
      join(dir, 'scenario_state.json'),
      JSON.stringify({
        adapter_spec: { method: 'multiple_choice_separate_calibrated' },
        request_states: ['i1', 'i2'].flatMap((id) =>
          [0, 1].flatMap((choice) => [requestState(id, choice, 'original'), requestState(id, choice, 'calibration')]),
        ),
      }),
    );
    // HELM scores the instance over its requests: exact_match, max_prob and predicted_index per instance.
    writeFileSync(
      join(dir, 'per_instance_stats.json'),
      JSON.stringify([
        { instance_id: 'i1', train_trial_index: 0, stats: [stat('exact_match', 1), stat('max_prob', 0.8), stat('predicted_index', 1)] },
        { instance_id: 'i2', train_trial_index: 0, stats: [stat('exact_match', 0), stat('max_prob', 0.6), stat('predicted_index', 0)] },
      ]),
    );
    // The instance's own input and choices, not the prompts: the same for both (and for every request).
    const CAPITALS = {
      input_hash: sha256('{"choices":["Lyon","Paris"],"input":"The capital of France is"}'),
      references_hash: sha256('["Paris"]'),
    };
    expect(await importHelm(dir)).toEqual([
      {
        scenario: 'capitals',
        id: 'i1',
        correct: 1,
        confidence: 0.8,
        input: 'The capital of France is Paris',
        prediction: 'Paris',
        references: ['Paris'],
        provenance: CAPITALS,
      },
      {
        scenario: 'capitals',
        id: 'i2',
        correct: 0,
        confidence: 0.6,
        input: 'The capital of France is Lyon',
        prediction: 'Lyon',
        references: ['Paris'],
        provenance: CAPITALS,
      },
    ]);
  });

  it('gates like any records (evalgate import, then evalgate gate)', async () => {
    const { runCli } = await import('../src/cli/index.js');
    const dir = tempDir();
    let stdout = '';
    const io = { stdout: (text: string) => (stdout += text), stderr: () => undefined };
    expect(
      await runCli(['import', '--from', 'helm', '__tests__/fixtures/helm/bbq-v3-meta_llama-3-8b', '--out', join(dir, 'r.jsonl')], io),
    ).toBe(0);
    writeFileSync(join(dir, 'p.yml'), 'version: 1\nname: helm\nchecks:\n  - metric: accuracy\n    min: 0.6\n');
    expect(await runCli(['gate', '--policy', join(dir, 'p.yml'), '--candidate', join(dir, 'r.jsonl')], io)).toBe(1);
    expect(stdout).toContain('accuracy (overall) blocks: 50% is below its minimum 60%');
    expect(stdout).toContain('No error control: 1 point bound (accuracy ≥ 60%) judges an estimate.');
    // The summary route: stats.json as a metrics file, gated with a stated direction.
    expect(
      await runCli(
        ['import', '--from', 'helm', '__tests__/fixtures/helm/bbq-v3-meta_llama-3-8b', '--summary', '--out', join(dir, 's.json')],
        io,
      ),
    ).toBe(0);
    writeFileSync(
      join(dir, 's.yml'),
      'version: 1\nname: helm\nchecks:\n  - metric: exact_match (robustness)\n    direction: higher\n    dimension: robustness\n    min: 0.4\n',
    );
    expect(await runCli(['gate', '--policy', join(dir, 's.yml'), '--candidate', join(dir, 's.json')], io)).toBe(0);
    // --from metrics checks an evalgate metrics file.
    expect(await runCli(['import', '--from', 'metrics', join(dir, 'r.jsonl'), '--out', join(dir, 'm.json')], io)).toBe(2);
  });

  it("reads HELM's own summary numbers, worst cases over perturbations included", async () => {
    const { importHelmStats } = await import('../src/importers/helm.js');
    const report = await importHelmStats('__tests__/fixtures/helm/bbq-v3-meta_llama-3-8b');
    // From stats.json: exact_match 0.5 (test), its worst case over robustness and fairness perturbations 0.5;
    // n is the 2 instances of per_instance_stats.json, not stats.json's count of train trials.
    expect(report.overall.exact_match).toEqual({ value: 0.5, ci: null, n: 2 });
    expect(report.overall['exact_match (robustness)']).toEqual({ value: 0.5, ci: null, n: 2 });
    expect(report.overall['exact_match (fairness)']).toEqual({ value: 0.5, ci: null, n: 2 });
    expect(report.overall.bbq_accuracy.value).toBe(0.5);
    expect(report.overall.inference_runtime.value).toBe(0.2045649290084839);
  });

  it('names the missing file of an incomplete run directory', async () => {
    const dir = tempDir();
    await expect(importHelm(dir)).rejects.toThrow(`${join(dir, 'run_spec.json')}: missing (a HELM run directory has run_spec.json`);
  });
});
