import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../src/cli/index.js';
import { computeMetrics } from '../src/metrics/compute.js';
import { buildTable } from '../src/metrics/table.js';
import { readRecords } from '../src/records/read.js';
import type { EvalRecord } from '../src/records/types.js';
import { recordProblem } from '../src/records/validate.js';
import { parseGateReport } from '../src/report/json.js';
import { BaselineAnswers } from '../src/runner/baseline-answers.js';
import { CompletionCache } from '../src/runner/cache.js';
import { openaiAdapter } from '../src/runner/models/openai.js';
import { DEFAULT_RUN_OPTIONS, runSuite, type RunOptions } from '../src/runner/run.js';
import { rejudgeRecords } from '../src/runner/rejudge.js';
import { aggregateSamples } from '../src/runner/scoring/judge-votes.js';
import { pairwiseOutcome, parsePairwiseVerdict } from '../src/runner/scoring/pairwise-prompt.js';
import { loadSuite } from '../src/runner/suite.js';
import { wilsonInterval } from '../src/stats/proportion.js';
import { startProbeJudgeServer, type ProbeJudgeServer } from './helpers/probe-judge-server.js';
import { tempDir, writeLines } from './helpers/records.js';

/*
 * The judge's self-consistency (judge_samples K) and bias probes (pairwise judging in both orders, the
 * length-bias probe) against a stand-in judge on 127.0.0.1 whose answers follow from the prompt
 * (helpers/probe-judge-server.ts), so that every count below is worked by hand.
 */

let server: ProbeJudgeServer;
beforeAll(async () => {
  server = await startProbeJudgeServer();
});
afterAll(() => server.close());

const OPTIONS: RunOptions = { ...DEFAULT_RUN_OPTIONS, retries: 0, concurrency: 1 };

/** A suite of one judged scenario whose instance `id` the model answers with `answers[id]`; returns its path. */
function suiteOf(dir: string, answers: Record<string, string>, options: Record<string, unknown>): string {
  const instances = Object.entries(answers).map(([id, answer]) => {
    const input = `question ${id} in ${dir}`;
    server.answers.set(input, answer);
    return { id, input, references: ['r'] };
  });
  writeFileSync(join(dir, 'answers.jsonl'), instances.map((instance) => JSON.stringify(instance)).join('\n'));
  const judge = { model: 'openai:judge-v1', base_url: server.url, ...options };
  const lines = Object.entries(judge).map(([key, value]) => `      ${key}: ${JSON.stringify(value)}`);
  const file = join(dir, 'suite.yaml');
  writeFileSync(
    file,
    `version: 1\nname: probes\nscenarios:\n  - name: answers\n    data: answers.jsonl\n    scorer: judge\n    scorer_options:\n${lines.join('\n')}\n`,
  );
  return file;
}

async function run(suiteFile: string, options: Partial<RunOptions> = {}) {
  const loaded = await loadSuite(suiteFile);
  const adapter = await openaiAdapter('candidate', server.url);
  try {
    return await runSuite(loaded, adapter, { ...OPTIONS, ...options });
  } finally {
    await adapter.close();
  }
}

const byId = (records: EvalRecord[]) => Object.fromEntries(records.map((record) => [record.id, record]));

describe('K verdicts per completion (judge_samples)', () => {
  const VOTES = {
    ppp: 'VOTES:PPP',
    ppf: 'VOTES:PPF',
    ffp: 'VOTES:FFP',
    pfu: 'VOTES:PFU',
    ppu: 'VOTES:PPU',
    fff: 'VOTES:FFF',
    ppe: 'VOTES:PPE',
    eee: 'VOTES:EEE',
  };

  it('grades by the majority of the K verdicts (no majority: unknown), keeps them, and measures their agreement', async () => {
    const dir = tempDir();
    const { records, stats } = await run(suiteOf(dir, VOTES, { judge_samples: 3 }));
    const got = byId(records);
    expect(got.ppp).toMatchObject({ correct: 1, judge: { verdict: 'pass' } });
    expect(got.ppf).toMatchObject({ correct: 1, judge: { verdict: 'pass' } });
    expect(got.ffp).toMatchObject({ correct: 0, judge: { verdict: 'fail' } });
    expect(got.ppu).toMatchObject({ correct: 1, judge: { verdict: 'pass' } });
    expect(got.fff).toMatchObject({ correct: 0, judge: { verdict: 'fail' } });
    // One pass, one fail and one unreadable reply: no verdict of more than half, so no grade.
    expect(got.pfu.judge).toMatchObject({ verdict: 'unknown', problem: expect.stringContaining('1 pass, 1 fail, 1 without a verdict') });
    expect(got.pfu).not.toHaveProperty('correct');
    // A failed call is a sample without a verdict; every call failed: the judge's error.
    expect(got.ppe).toMatchObject({ correct: 1, judge: { verdict: 'pass' } });
    expect(got.ppe.judge!.samples![2]).toMatchObject({ verdict: 'unknown', error: expect.stringContaining('HTTP 500') });
    expect(got.eee.judge_error).toContain('HTTP 500');
    expect(got.eee).not.toHaveProperty('judge');
    // The K verdicts, in the order asked, each with its reason (or its raw reply).
    expect(got.ffp.judge!.samples).toEqual([
      { verdict: 'fail', reason: 'sample 0' },
      { verdict: 'fail', reason: 'sample 1' },
      { verdict: 'pass', reason: 'sample 2' },
    ]);
    expect(got.pfu.judge!.samples![2]).toMatchObject({ verdict: 'unknown', raw: 'It depends on how you read the question.' });
    // Each sample its own request: seeds 0, 1 and 2; 3 calls a completion, 100 input tokens each.
    const judgeSeeds = server.bodies.filter((body) => body.model === 'judge-v1' && body.messages[0].content.includes('VOTES:PPF'));
    expect(judgeSeeds.map((body) => body.seed)).toEqual([0, 1, 2]);
    expect(stats.judge).toMatchObject({ records: 24, errors: 4, unknown: 1 });
    expect(got.ppp.judge).toMatchObject({ input_tokens: 300, output_tokens: 30 });
    // The fingerprint says how many samples and how they were combined.
    expect(got.ppp.provenance?.scorer).toMatch(/ max_tokens=512 samples=3 aggregate=majority parser=1$/);
    for (const record of records) expect(recordProblem(record)).toBeUndefined();

    // judge_self_agreement: of the 7 records with K verdicts, ppp and fff agree: 2/7, Wilson's interval.
    const report = computeMetrics(buildTable(records), { resamples: 200, seed: 1, minGroupSize: 10 });
    expect(report.overall.judge_self_agreement).toMatchObject({ value: 2 / 7, n: 7, ci: wilsonInterval(2, 7) });
    expect(report.scenarios.answers.judge_self_agreement.value).toBeCloseTo(2 / 7, 12);
    expect(report.overall.judge_unknown_rate.value).toBeCloseTo(2 / 8, 12); // pfu unknown, eee failed
    expect(report.overall.accuracy.value).toBeCloseTo(4 / 6, 12);
  });

  it('gives each sample its own cache entry, and a changed K asks again', async () => {
    const dir = tempDir();
    const cache = new CompletionCache(join(dir, 'cache'));
    const answers = { a: 'VOTES:PPF', b: 'VOTES:FFF' };
    const before = server.countFor('judge-v1');
    const first = await run(suiteOf(dir, answers, { judge_samples: 3 }), { cache });
    expect(server.countFor('judge-v1') - before).toBe(6);
    const again = await run(suiteOf(dir, answers, { judge_samples: 3 }), { cache });
    expect(server.countFor('judge-v1') - before).toBe(7); // the probe only
    expect(again.records.map((record) => record.judge)).toEqual(first.records.map((record) => record.judge));
    await run(suiteOf(dir, answers, { judge_samples: 2 }), { cache });
    expect(server.countFor('judge-v1') - before).toBe(11); // another fingerprint: 2 x 2 asked again, its probe among them
  });

  it('takes the mean grade with judge_aggregate: mean, and no grade unless every sample gave one', async () => {
    const { records } = await run(
      suiteOf(
        tempDir(),
        { even: 'SCORES:0.8,0.6,0.1', low: 'SCORES:0.3,0.6,0', gap: 'VOTES:PPU' },
        { judge_samples: 3, judge_aggregate: 'mean' },
      ),
    );
    const got = byId(records);
    expect(got.even.correct).toBeCloseTo(0.5, 12);
    expect(got.even.judge).toMatchObject({ verdict: 'pass' });
    expect(got.low.correct).toBeCloseTo(0.3, 12);
    expect(got.low.judge).toMatchObject({ verdict: 'fail' });
    expect(got.gap.judge).toMatchObject({ verdict: 'unknown', problem: "the mean needs all 3 samples' grades: 1 gave none" });
    expect(got.even.provenance?.scorer).toContain('samples=3 aggregate=mean');
  });

  it('breaks an even split into unknown', () => {
    const pass = { verdict: 'pass' as const };
    const fail = { verdict: 'fail' as const };
    expect(aggregateSamples([pass, fail], 'majority').verdict).toBe('unknown');
    expect(aggregateSamples([pass, pass, fail, fail], 'majority').verdict).toBe('unknown');
    expect(aggregateSamples([pass, pass, fail, { verdict: 'unknown' }], 'majority').verdict).toBe('unknown');
    expect(aggregateSamples([pass, pass, pass, fail], 'majority')).toEqual({ verdict: 'pass', correct: 1 });
  });
});

/**
 * The candidate's and the baseline's completions, and what the stand-in makes of them (see its rules):
 * win: "good" (GOOD, shorter) and "longer" (the longer); loss: "shorter" and "bad" (the baseline's GOOD, longer);
 * flipped to a tie: "even1", "even2" (equal lengths) and "bothgood" (both GOOD, equal lengths);
 * unknown: "garbage"; "new": no baseline completion, not compared.
 */
const PAIRS: Record<string, [candidate: string, baseline: string | undefined]> = {
  good: ['GOOD short', 'a much longer baseline answer'],
  longer: ['a longer candidate answer here', 'short'],
  shorter: ['x', 'a longer baseline text'],
  bad: ['short', 'GOOD but longer text'],
  even1: ['same1', 'same2'],
  even2: ['abc', 'xyz'],
  bothgood: ['GOOD', 'GOOD'],
  garbage: ['PAIRGARBAGE', 'ok'],
  new: ['anything', undefined],
};

/** The baseline's records file of PAIRS (as a run of the same suite would write it). */
function baselineFile(): string {
  const records = Object.entries(PAIRS).flatMap(([id, [, baseline]]) =>
    baseline === undefined ? [] : [{ scenario: 'answers', id, prediction: baseline, correct: 1 }],
  );
  return writeLines('baseline.jsonl', [...records, { scenario: 'answers', id: 'failed', error: 'HTTP 500' }]);
}

const candidateAnswers = () => Object.fromEntries(Object.entries(PAIRS).map(([id, [candidate]]) => [id, candidate]));

async function pairwiseRun(options: Record<string, unknown> = {}) {
  const suite = suiteOf(tempDir(), candidateAnswers(), { judge_pairwise: 'baseline', length_bias_probe: true, ...options });
  const baselineAnswers = await BaselineAnswers.read(baselineFile(), await loadSuite(suite));
  return { suite, ...(await run(suite, { baselineAnswers })) };
}

describe('pairwise judging against the baseline (judge_pairwise: baseline)', () => {
  it('asks both orders, counts a verdict that flips with the order as a tie, and records the outcome', async () => {
    const asked = server.bodies.length;
    const { records } = await pairwiseRun();
    const got = byId(records);
    const outcome = (id: string) => got[id].judge_pairwise?.outcome;
    expect(['good', 'longer'].map(outcome)).toEqual(['win', 'win']);
    expect(['shorter', 'bad'].map(outcome)).toEqual(['loss', 'loss']);
    expect(['even1', 'even2', 'bothgood'].map(outcome)).toEqual(['tie', 'tie', 'tie']);
    expect(outcome('garbage')).toBe('unknown');
    expect(got.new).not.toHaveProperty('judge_pairwise');
    // The position-biased verdicts: "A" both times, the candidate first and then the baseline first.
    expect(got.even1.judge_pairwise).toMatchObject({
      flipped: true,
      candidate_first: { verdict: 'A', reason: 'first' },
      baseline_first: { verdict: 'A', reason: 'first' },
      longer: 'same',
    });
    expect(got.good.judge_pairwise).toMatchObject({
      flipped: false,
      candidate_first: { verdict: 'A' },
      baseline_first: { verdict: 'B' },
      longer: 'baseline',
      input_tokens: 200,
      output_tokens: 20,
    });
    expect(got.good.judge_pairwise!.fingerprint).toMatch(
      /^pairwise judge model=openai:judge-v1 served=judge-v1 template=pairwise:[0-9a-f]{16} /,
    );
    expect(got.garbage.judge_pairwise).toMatchObject({ candidate_first: { verdict: 'unknown', raw: 'Both have merit.' } });
    expect(got.garbage.judge_pairwise).not.toHaveProperty('flipped');
    // The grade itself is the judge's usual one, and its fingerprint leaves the comparison out.
    expect(got.good).toMatchObject({ correct: 1, judge: { verdict: 'pass' } });
    expect(got.good.provenance?.scorer).not.toContain('pairwise');
    for (const record of records) expect(recordProblem(record)).toBeUndefined();
    // Both orders were shown: the candidate's answer as A, then as B.
    const shown = (text: string) => server.bodies.slice(asked).filter((body) => body.messages[0].content.includes(text));
    expect(shown('[Answer A]\nGOOD short\n\n[Answer B]\na much longer baseline answer\n')).toHaveLength(1);
    expect(shown('[Answer A]\na much longer baseline answer\n\n[Answer B]\nGOOD short\n')).toHaveLength(1);
    // The model asked 9 times, the judge 9 grades and 8 comparisons of 2 calls each.
    expect(server.bodies.length - asked).toBe(9 + 9 + 16);
  });

  it('gives judge_win_rate, judge_flip_rate and judge_longer_wins_rate their hand-computed values and intervals', async () => {
    const { records } = await pairwiseRun();
    const report = computeMetrics(buildTable(records), { resamples: 300, seed: 1, minGroupSize: 10 });
    const { judge_win_rate: win, judge_flip_rate: flip, judge_longer_wins_rate: longer } = report.overall;
    // 8 compared: 2 wins, 3 ties (flips), 2 losses, 1 without an outcome (a loss): (2 + 3 / 2) / 8.
    expect(win.value).toBeCloseTo(3.5 / 8, 12);
    expect(win.n).toBe(8);
    expect(win.ci![0]).toBeLessThan(win.value);
    expect(win.ci![1]).toBeGreaterThan(win.value);
    // 3 of the 7 with an outcome flipped.
    expect(flip).toMatchObject({ value: 3 / 7, n: 7, ci: wilsonInterval(3, 7) });
    // Wins and losses between lengths that differ: good (the shorter won), longer, shorter, bad (the longer won): 3 of 4.
    expect(longer).toMatchObject({ value: 3 / 4, n: 4, ci: wilsonInterval(3, 4) });
    expect(report.scenarios.answers.judge_flip_rate.value).toBeCloseTo(3 / 7, 12);
  });

  it('records no length without the probe, and compares nothing without the baseline, saying so', async () => {
    const { records } = await pairwiseRun({ length_bias_probe: false });
    expect(records.some((record) => record.judge_pairwise?.longer !== undefined)).toBe(false);
    expect(computeMetrics(buildTable(records), { resamples: 0, seed: 1, minGroupSize: 10 }).overall).not.toHaveProperty(
      'judge_longer_wins_rate',
    );
    const warnings: string[] = [];
    const alone = await run(suiteOf(tempDir(), { a: 'x' }, { judge_pairwise: 'baseline' }), { onWarning: (text) => warnings.push(text) });
    expect(alone.records[0]).not.toHaveProperty('judge_pairwise');
    expect(warnings.join('\n')).toContain('no baseline records were given (--baseline-records)');
  });

  it('does not compare an example the baseline answered with another input', async () => {
    const suite = suiteOf(tempDir(), { a: 'same answer' }, { judge_pairwise: 'baseline' });
    const other = writeLines('baseline.jsonl', [
      { scenario: 'answers', id: 'a', prediction: 'old', correct: 1, provenance: { input_hash: '0'.repeat(64) } },
    ]);
    const warnings: string[] = [];
    const { records } = await run(suite, {
      baselineAnswers: await BaselineAnswers.read(other, await loadSuite(suite)),
      onWarning: (text) => warnings.push(text),
    });
    expect(records[0]).not.toHaveProperty('judge_pairwise');
    expect(warnings.join('\n')).toContain('answered with another input or references are not compared pairwise');
  });

  it("matches the baseline's completion of the same example and sample, and only of pairwise scenarios", async () => {
    const suite = await loadSuite(suiteOf(tempDir(), { a: 'x' }, { judge_pairwise: 'baseline' }));
    const file = writeLines('baseline.jsonl', [
      { scenario: 'answers', id: 'a', prediction: 'first', correct: 1 },
      { scenario: 'answers', id: 'a', sample: 1, prediction: 'second', correct: 1 },
      { scenario: 'answers', id: 'a', perturbation: { name: 'typos', kind: 'robustness' }, prediction: 'typo', correct: 1 },
      { scenario: 'other', id: 'a', prediction: 'elsewhere', correct: 1 },
    ]);
    const answers = await BaselineAnswers.read(file, suite);
    expect(answers.answerFor({ scenario: 'answers', id: 'a' })).toEqual({ answer: 'first' });
    expect(answers.answerFor({ scenario: 'answers', id: 'a', sample: 1 })).toEqual({ answer: 'second' });
    expect(answers.answerFor({ scenario: 'answers', id: 'a', perturbation: { name: 'typos', kind: 'robustness' } })).toEqual({
      answer: 'typo',
    });
    expect(answers.answerFor({ scenario: 'answers', id: 'a', sample: 2 })).toEqual({ missing: 'none' });
    expect(answers.answerFor({ scenario: 'other', id: 'a' })).toEqual({ missing: 'none' });
  });

  it('refuses the length-bias probe without pairwise judging', async () => {
    await expect(loadSuite(suiteOf(tempDir(), { a: 'x' }, { length_bias_probe: true }))).rejects.toThrow(
      'the length-bias probe reads pairwise verdicts: give judge_pairwise: baseline',
    );
  });

  it('runs from the CLI with --baseline-records, and rejudge compares again', async () => {
    const dir = tempDir();
    const suite = suiteOf(dir, candidateAnswers(), { judge_pairwise: 'baseline' });
    const out = join(dir, 'candidate.jsonl');
    let stderr = '';
    const io = { stdout: () => undefined, stderr: (text: string) => (stderr += text) };
    const args = ['run', '--suite', suite, '--model', 'openai:candidate', '--base-url', server.url, '--out', out, '--no-cache'];
    expect(await runCli([...args, '--baseline-records', baselineFile()], io)).toBe(0);
    const written = byId(await readRecords(out));
    expect(written.even1.judge_pairwise).toMatchObject({ outcome: 'tie', flipped: true });
    expect(written.good.judge_pairwise).toMatchObject({ outcome: 'win' });
    // Judged again without a baseline: the comparisons go with the grades they were made with.
    const again = await rejudgeRecords(await loadSuite(suite), out, { ...OPTIONS, onWarning: () => undefined });
    expect(again.records.some((record) => record.judge_pairwise !== undefined)).toBe(false);
    // With the baseline, rejudge compares again.
    const rejudged = join(dir, 'rejudged.jsonl');
    const rejudge = ['rejudge', '--suite', suite, '--records', out, '--out', rejudged, '--no-cache', '--baseline-records', baselineFile()];
    expect(await runCli(rejudge, io)).toBe(0);
    expect(byId(await readRecords(rejudged)).shorter.judge_pairwise).toMatchObject({ outcome: 'loss', flipped: false });
    expect(stderr).toContain('9 of 9 records judged again');
  });
});

describe('the pairwise parser', () => {
  it.each([
    ['{"verdict": "A", "reason": "clearer"}', 'A'],
    ['```json\n{"verdict": "tie"}\n```', 'tie'],
    ['{"verdict": "B"}', 'B'],
  ])('reads %j as %s', (reply, verdict) => {
    expect(parsePairwiseVerdict(reply).verdict).toBe(verdict);
  });

  it.each([
    ['prose', 'A is better.'],
    ['a lower-case letter', '{"verdict": "a"}'],
    ['a grade instead', '{"verdict": "pass"}'],
    ['an extra key', '{"verdict": "A", "score": 1}'],
    ['both', '{"verdict": "A and B"}'],
    ['two objects', '{"verdict": "A"} {"verdict": "B"}'],
  ])('reads %s as unknown', (_, reply) => {
    expect(parsePairwiseVerdict(reply).verdict).toBe('unknown');
  });

  it('reads both orders for the candidate: agreement stands, any change is a flipped tie, an unknown is no outcome', () => {
    expect(pairwiseOutcome('A', 'B')).toEqual({ outcome: 'win', flipped: false });
    expect(pairwiseOutcome('B', 'A')).toEqual({ outcome: 'loss', flipped: false });
    expect(pairwiseOutcome('tie', 'tie')).toEqual({ outcome: 'tie', flipped: false });
    expect(pairwiseOutcome('A', 'A')).toEqual({ outcome: 'tie', flipped: true });
    expect(pairwiseOutcome('A', 'tie')).toEqual({ outcome: 'tie', flipped: true });
    expect(pairwiseOutcome('unknown', 'B')).toEqual({ outcome: 'unknown' });
  });
});

describe('pairwise records', () => {
  const pairwise = (fields: Record<string, unknown>) => ({
    scenario: 's',
    id: '1',
    correct: 1,
    judge_pairwise: { outcome: 'win', flipped: false, candidate_first: { verdict: 'A' }, baseline_first: { verdict: 'B' }, ...fields },
  });

  it.each([
    [{ outcome: 'better' }, '"judge_pairwise.outcome" must be "win", "loss", "tie" or "unknown"'],
    [{ flipped: true }, '"judge_pairwise.outcome" must be "tie" when "flipped" is true'],
    [{ outcome: 'unknown' }, '"judge_pairwise.flipped" must be absent when "outcome" is "unknown"'],
    [{ candidate_first: { verdict: 'C' } }, '"judge_pairwise.candidate_first.verdict" must be "A", "B", "tie" or "unknown"'],
    [{ baseline_first: undefined }, '"judge_pairwise.baseline_first" must be an object'],
    [{ longer: 'both' }, '"judge_pairwise.longer" must be "candidate", "baseline" or "same"'],
    [{ cost_usd: -1 }, '"judge_pairwise.cost_usd" must be a non-negative number'],
  ])('refuses %j', (fields, problem) => {
    expect(recordProblem(pairwise(fields))).toContain(problem);
  });

  it("adds the comparisons' cost to the judge's, apart from the model's", () => {
    const { judge_pairwise: compared } = pairwise({});
    const records = [
      { ...pairwise({ cost_usd: 0.5 }), cost_usd: 1, judge: { verdict: 'pass' as const, cost_usd: 0.25 } },
      { ...pairwise({ cost_usd: 0.125 }), id: '2' },
      { scenario: 's', id: '3', correct: 1, judge: { verdict: 'pass' as const, cost_usd: 0.0625 }, judge_pairwise: compared },
    ] as EvalRecord[];
    const report = computeMetrics(buildTable(records), { resamples: 0, seed: 1, minGroupSize: 10 });
    expect(report.overall.judge_cost_usd_total.value).toBe(0.5 + 0.25 + 0.125 + 0.0625);
    expect(report.overall.cost_usd_total.value).toBe(1);
  });

  it('refuses samples that are not verdicts, and a comparison on a failed call', () => {
    expect(recordProblem({ scenario: 's', id: '1', correct: 1, judge: { verdict: 'pass', samples: [{ verdict: 'yes' }] } })).toContain(
      '"judge.samples[0].verdict" must be "pass", "fail" or "unknown"',
    );
    expect(recordProblem({ scenario: 's', id: '1', correct: 1, judge: { verdict: 'pass', samples: [] } })).toContain(
      '"judge.samples" must be a list of 1 to 25 verdicts',
    );
    const { judge_pairwise } = pairwise({});
    expect(recordProblem({ scenario: 's', id: '1', error: 'HTTP 500', judge_pairwise })).toContain(
      '"judge_pairwise" must be absent when "error" is set',
    );
    expect(recordProblem(pairwise({}))).toBeUndefined();
  });
});

describe('a policy on the probes', () => {
  it('bounds judge_flip_rate, judge_win_rate and judge_self_agreement', async () => {
    const { records } = await pairwiseRun();
    const dir = tempDir();
    const candidate = join(dir, 'candidate.jsonl');
    writeFileSync(candidate, records.map((record) => JSON.stringify(record)).join('\n'));
    const baseline = join(dir, 'baseline.jsonl');
    writeFileSync(baseline, records.map(({ judge_pairwise: _, ...record }) => JSON.stringify(record)).join('\n'));
    const policy = join(dir, 'policy.yml');
    writeFileSync(
      policy,
      'version: 1\nname: probes\nsettings:\n  resamples: 300\nchecks:\n  - metric: judge_flip_rate\n    max: 0.2\n  - metric: judge_win_rate\n    min: 0.1\n',
    );
    const json = join(dir, 'report.json');
    const code = await runCli(['gate', '--policy', policy, '--candidate', candidate, '--baseline', baseline, '--json', json], {
      stdout: () => undefined,
      stderr: () => undefined,
    });
    const report = parseGateReport(readFileSync(json, 'utf8'), json);
    // 3 of 7 flipped is over a 0.2 ceiling: the gate blocks on it.
    expect(report.checks.find((check) => check.metric === 'judge_flip_rate')).toMatchObject({ status: 'fail' });
    expect(report.checks.find((check) => check.metric === 'judge_flip_rate')!.candidate?.value).toBeCloseTo(3 / 7, 12);
    expect(report.checks.find((check) => check.metric === 'judge_win_rate')!.candidate?.value).toBeCloseTo(3.5 / 8, 12);
    expect(code).toBe(1);
    // A policy naming the self-agreement and the length bias is valid; a misspelt probe is not.
    let said = '';
    const io = { stdout: (text: string) => (said += text), stderr: (text: string) => (said += text) };
    writeFileSync(
      policy,
      'version: 1\nname: probes\nchecks:\n  - metric: judge_self_agreement\n    min: 0.9\n  - metric: judge_longer_wins_rate\n    max: 0.6\n',
    );
    expect(await runCli(['validate', policy], io)).toBe(0);
    writeFileSync(policy, 'version: 1\nname: probes\nchecks:\n  - metric: judge_flip_rates\n    max: 0.1\n');
    expect(await runCli(['validate', policy], io)).not.toBe(0);
    expect(said).toContain('did you mean judge_flip_rate?');
  });
});
