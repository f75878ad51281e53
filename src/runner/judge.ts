import { join } from 'node:path';
import { UsageError } from '../errors.js';
import { own } from '../records/dictionary.js';
import { FailureTally } from '../records/failures.js';
import type { EvalRecord, JudgePairwise, JudgeSample, JudgeVerdict, PairwiseOrderVerdict } from '../records/types.js';
import type { BaselineAnswers } from './baseline-answers.js';
import { CompletionCache } from './cache.js';
import { ModelCalls, type Answer } from './calls.js';
import { commandAdapter } from './models/command.js';
import { openaiAdapter } from './models/openai.js';
import { redactor } from './models/redact.js';
import { AdapterError, EndpointError, type CompletionRequest, type ModelAdapter } from './models/types.js';
import type { RunOptions, RunStats } from './run.js';
import {
  inputText,
  JUDGE_DECODING,
  judgeFingerprint,
  judgePrompt,
  parseVerdict,
  samplingWords,
  templateHash,
  PARSER_VERSION,
  VERDICT_SCHEMA,
  type JudgeSampling,
  type Verdict,
} from './scoring/judge-prompt.js';
import { aggregateSamples } from './scoring/judge-votes.js';
import {
  longerAnswer,
  PAIRWISE_SCHEMA,
  pairwiseFingerprint,
  pairwiseOutcome,
  pairwisePrompt,
  parsePairwiseVerdict,
} from './scoring/pairwise-prompt.js';
import type { LoadedSuite, Scenario } from './suite.js';

/*
 * The judge scorer's calls (docs/suites.md#the-judge-scorer): a model, not the one under test, asked
 * to grade each completion, with deterministic decoding, through its own completion cache and
 * statistics. What a judged record carries is written here, for `evalgate run` and `evalgate rejudge`
 * alike: `correct` from the verdict, `judge`, `provenance.scorer` (the fingerprint), or `judge_error`.
 */

/** What a judge's calls cost a run, apart from the model under test's. */
export interface JudgeStats extends RunStats {
  inputTokens: number;
  outputTokens: number;
  costUsd: number;
  unknown: number;
}

export const newJudgeStats = (): JudgeStats => ({
  records: 0,
  errors: 0,
  retries: 0,
  cacheHits: 0,
  seconds: 0,
  failures: new FailureTally(),
  inputTokens: 0,
  outputTokens: 0,
  costUsd: 0,
  unknown: 0,
});

/** "judge: 12 calls (1 failed, 0 retries, 3 from the cache), 2 unknown verdicts, 480 input and 36 output tokens, $0.0012" */
export function describeJudging(stats: JudgeStats): string {
  const cost = stats.costUsd > 0 ? `, $${+stats.costUsd.toPrecision(4)}` : '';
  return (
    `judge: ${stats.records} calls (${stats.errors} failed, ${stats.retries} retries, ${stats.cacheHits} from the cache), ` +
    `${stats.unknown} unknown verdict${stats.unknown === 1 ? '' : 's'}, ${stats.inputTokens} input and ${stats.outputTokens} output tokens${cost}`
  );
}

type JudgeOptions = Scenario['scorer_options'];

/** How many times the judge is asked per completion, and how the verdicts make a grade. */
const samplingOf = (options: JudgeOptions): JudgeSampling => ({
  samples: options.judge_samples ?? 1,
  aggregate: options.judge_aggregate ?? 'majority',
});

/** The judge's adapter: its key from its own variable, its cache entries told apart by its fingerprint but the served model. */
async function judgeAdapter(options: JudgeOptions): Promise<ModelAdapter> {
  const spec = options.model!;
  const template = options.template ?? 'closed_qa';
  const revision = [`judge template=${templateHash(template)} parser=${PARSER_VERSION}`, ...samplingWords(samplingOf(options))].join(' ');
  const rest = spec.slice(spec.indexOf(':') + 1).trim();
  if (options.api_key_env !== undefined && !process.env[options.api_key_env]) {
    throw new UsageError(`the judge ${spec} reads its key from ${options.api_key_env} (scorer_options.api_key_env), which is not set`);
  }
  if (spec.startsWith('openai:')) return openaiAdapter(rest, options.base_url, revision, options.api_key_env ?? 'OPENAI_API_KEY');
  return commandAdapter(rest.replace(/^"(.*)"$/, '$1'), revision);
}

/** Whether two adapters are the same model: the same adapter and endpoint, or the same model name. */
const sameModel = (judge: ModelAdapter, tested: ModelAdapter) => judge.id === tested.id || judge.model === tested.model;

/** A judge call's outcome: its answer, or the failed call's error (redacted). */
type Asked = Answer | { error: string };

const answeredCalls = (asked: Asked[]): Answer[] => asked.filter((call): call is Answer => 'completion' in call);

/** One scenario's judge: its calls, and what a completion's record gets from it. */
export class Judge {
  private readonly calls: ModelCalls;
  private readonly redact: (text: string) => string;
  private readonly sampling: JudgeSampling;
  /** The first call, asked whatever the cache holds (the probe): it says what the endpoint serves. */
  private first: Promise<unknown> | undefined;
  /** Whether the judge has answered a call, and the model it said it served then (the fingerprint of a failed call's record). */
  private answered = false;
  private served: string | undefined;

  private constructor(
    private readonly adapter: ModelAdapter,
    private readonly options: JudgeOptions,
    private readonly price: { input: number; output: number } | undefined,
    private readonly stats: JudgeStats,
    private readonly baseline: BaselineAnswers | undefined,
    runOptions: RunOptions,
    private readonly warnOnce: (kind: string, message: string) => void,
  ) {
    // A command judge gets the environment, its key variable among it, and may quote it.
    this.redact = redactor([...adapter.secrets, options.api_key_env === undefined ? undefined : process.env[options.api_key_env]]);
    this.sampling = samplingOf(options);
    const cache = runOptions.cache && new CompletionCache(join(runOptions.cache.directory, 'judge'));
    this.calls = new ModelCalls(adapter, { ...runOptions, cache }, stats, (kind, message) =>
      warnOnce(`judge-${kind}`, `the judge: ${message}`),
    );
  }

  /** A scenario's judge; refused when it is the model under test (`tested`) and the suite does not allow it. */
  static async create(
    scenario: Scenario,
    loaded: LoadedSuite,
    tested: ModelAdapter | undefined,
    stats: JudgeStats,
    runOptions: RunOptions,
    warnOnce: (kind: string, message: string) => void,
  ): Promise<Judge> {
    const options = scenario.scorer_options;
    const adapter = await judgeAdapter(options);
    if (tested && sameModel(adapter, tested) && options.allow_self_judging !== true) {
      await adapter.close();
      throw new UsageError(
        `scenario "${scenario.name}": the judge ${options.model} is the model under test; a model grading itself favours its own ` +
          'answers. Use another judge, or say so with scorer_options.allow_self_judging: true',
      );
    }
    const baseline = options.judge_pairwise === undefined ? undefined : runOptions.baselineAnswers;
    if (options.judge_pairwise !== undefined && !baseline) {
      warnOnce(
        `pairwise-${scenario.name}`,
        `scenario "${scenario.name}" is judged pairwise against the baseline, but no baseline records were given ` +
          '(--baseline-records): its records carry no pairwise verdict',
      );
    }
    return new Judge(adapter, options, own(loaded.suite.prices, adapter.model), stats, baseline, runOptions, warnOnce);
  }

  /** The fields a record of `output` gets from the judge (correct, judge, provenance.scorer, or judge_error; judge_pairwise). */
  async grade(record: EvalRecord, output: string): Promise<Partial<EvalRecord>> {
    const template = this.options.template ?? 'closed_qa';
    const prompt = judgePrompt(template, { input: inputText(record.input), output, references: referencesOf(record) });
    const format = { name: 'verdict', schema: VERDICT_SCHEMA as unknown as Record<string, unknown> };
    const asked: Asked[] = [];
    for (let sample = 0; sample < this.sampling.samples; sample++) asked.push(await this.ask(record, prompt, format, sample));
    const pairwise = await this.comparedWithBaseline(record, output);
    const answers = answeredCalls(asked);
    // The model that answered names the grade; with no answer, the one the judge served before.
    const served = answers.length > 0 ? answers[0].completion.servedModel : this.served;
    const fingerprint = judgeFingerprint(this.options.model!, served, template, this.sampling);
    const provenance = { ...record.provenance, scorer: fingerprint };
    if (answers.length === 0) return { judge_error: (asked[0] as { error: string }).error, provenance, ...pairwise };
    const usage = this.usage(answers);
    const samples = asked.map((call) => this.sampleOf(call));
    const single = samples.length === 1;
    const graded = single ? gradeOf(samples[0]) : aggregateSamples(samples, this.sampling.aggregate);
    if (graded.verdict === 'unknown') this.stats.unknown++;
    // One verdict is the record's as the judge gave it; K verdicts are kept beside the grade they make.
    const { correct, ...made } = graded.verdict === 'unknown' ? { ...graded, correct: undefined } : graded;
    const judge = { ...(single ? samples[0] : made), ...(single ? {} : { samples }), ...usage } as JudgeVerdict;
    return { ...(correct === undefined ? {} : { correct }), judge, provenance, ...pairwise };
  }

  /** One verdict as the record keeps it: read strictly, its texts redacted; a failed call's error. */
  private sampleOf(call: Asked): JudgeSample {
    if (!('completion' in call)) return { verdict: 'unknown', error: call.error };
    const verdict = parseVerdict(call.completion.text);
    if (verdict.verdict === 'unknown') return { verdict: 'unknown', raw: this.redact(call.completion.text), problem: verdict.problem };
    const { correct: _, reason, ...said } = verdict;
    return { ...said, ...(reason === undefined ? {} : { reason: this.redact(reason) }) };
  }

  /** `judge_pairwise`: the completion compared with the baseline's in both orders, where the baseline has one for this example. */
  private async comparedWithBaseline(record: EvalRecord, output: string): Promise<{ judge_pairwise?: JudgePairwise }> {
    if (!this.baseline) return {};
    const found = this.baseline.answerFor(record);
    if ('missing' in found) {
      if (found.missing === 'changed') {
        this.warnOnce(
          'pairwise-changed',
          `scenario "${record.scenario}": examples the baseline answered with another input or references are not compared pairwise`,
        );
      }
      return {};
    }
    const fields = { input: inputText(record.input), references: referencesOf(record) };
    const format = { name: 'pairwise_verdict', schema: PAIRWISE_SCHEMA as unknown as Record<string, unknown> };
    const candidateFirst = await this.ask(record, pairwisePrompt({ ...fields, outputA: output, outputB: found.answer }), format, 0);
    const baselineFirst = await this.ask(record, pairwisePrompt({ ...fields, outputA: found.answer, outputB: output }), format, 0);
    const [first, second] = [candidateFirst, baselineFirst].map((call) => this.orderVerdictOf(call));
    const answers = answeredCalls([candidateFirst, baselineFirst]);
    const comparison: JudgePairwise = {
      ...pairwiseOutcome(first.verdict, second.verdict),
      candidate_first: first,
      baseline_first: second,
      ...(this.options.length_bias_probe === true ? { longer: longerAnswer(output, found.answer) } : {}),
      fingerprint: pairwiseFingerprint(this.options.model!, answers.length > 0 ? answers[0].completion.servedModel : this.served),
      ...this.usage(answers),
    };
    return { judge_pairwise: comparison };
  }

  /** One order's pairwise verdict as the record keeps it. */
  private orderVerdictOf(call: Asked): PairwiseOrderVerdict {
    if (!('completion' in call)) return { verdict: 'unknown', error: call.error };
    const verdict = parsePairwiseVerdict(call.completion.text);
    if (verdict.verdict === 'unknown') return { verdict: 'unknown', raw: this.redact(call.completion.text), problem: verdict.problem };
    return { verdict: verdict.verdict, ...(verdict.reason === undefined ? {} : { reason: this.redact(verdict.reason) }) };
  }

  /**
   * Asks the judge one prompt (judge sample `sample`: its seed, so that each sample is its own request
   * and cache entry). The judge's first call is asked alone, whatever the cache holds (the probe): a
   * judge that cannot answer it stops the run. A failed call later is the record's, not the run's.
   */
  private async ask(
    record: EvalRecord,
    prompt: string,
    responseFormat: CompletionRequest['responseFormat'],
    sample: number,
  ): Promise<Asked> {
    const request: CompletionRequest = {
      scenario: record.scenario,
      id: record.id,
      ...(record.perturbation ? { perturbation: record.perturbation.name } : {}),
      ...(record.sample ? { sample: record.sample } : {}),
      messages: [{ role: 'user' as const, content: prompt }],
      settings: { ...JUDGE_DECODING, seed: JUDGE_DECODING.seed + sample },
      responseFormat,
    };
    this.stats.records++;
    let asked;
    if (this.first === undefined) {
      asked = this.calls.call(request, true);
      this.first = asked.catch(() => undefined);
    } else {
      await this.first;
      asked = this.calls.call(request);
    }
    const answer = await asked.catch((error: unknown) => {
      if (!(error instanceof AdapterError)) throw error; // a bug in the adapter
      return error;
    });
    if (answer instanceof AdapterError) {
      if (answer.endpoint && !this.answered) {
        throw new EndpointError(this.redact(`the judge ${this.options.model} cannot answer: ${answer.message}; nothing was written`));
      }
      const error = this.redact(answer.message);
      this.stats.errors++;
      this.stats.failures.add(error);
      return { error };
    }
    if (!this.answered) [this.answered, this.served] = [true, answer.completion.servedModel];
    if (answer.cached) this.stats.cacheHits++;
    return answer;
  }

  /** Calls' tokens and cost (their own, or the suite's prices of the judge model), added to the judge's totals. */
  private usage(answers: Answer[]) {
    const price = this.price;
    let [inputTokens, outputTokens, costUsd] = [0, 0, 0] as Array<number | undefined>;
    for (const { completion } of answers) {
      const given = completion.costUsd;
      const cost =
        given ??
        (price && completion.inputTokens !== undefined && completion.outputTokens !== undefined
          ? (completion.inputTokens * price.input + completion.outputTokens * price.output) / 1e6
          : undefined);
      // A total is known only when every call's part of it is.
      inputTokens = completion.inputTokens === undefined || inputTokens === undefined ? undefined : inputTokens + completion.inputTokens;
      outputTokens =
        completion.outputTokens === undefined || outputTokens === undefined ? undefined : outputTokens + completion.outputTokens;
      costUsd = cost === undefined || costUsd === undefined ? undefined : costUsd + cost;
      this.stats.inputTokens += completion.inputTokens ?? 0;
      this.stats.outputTokens += completion.outputTokens ?? 0;
      this.stats.costUsd += cost ?? 0;
    }
    return {
      ...(inputTokens === undefined ? {} : { input_tokens: inputTokens }),
      ...(outputTokens === undefined ? {} : { output_tokens: outputTokens }),
      ...(costUsd === undefined ? {} : { cost_usd: costUsd }),
    };
  }

  close(): Promise<void> {
    return this.adapter.close();
  }
}

/** A record's references as a list, as the judge is shown them. */
const referencesOf = (record: EvalRecord): string[] =>
  typeof record.references === 'string' ? [record.references] : (record.references ?? []);

/** One verdict's grade: its score, else 1 for a pass and 0 for a fail; unknown as it is. */
function gradeOf(sample: JudgeSample): Verdict {
  if (sample.verdict === 'unknown') return { verdict: 'unknown', problem: sample.problem ?? sample.error ?? 'no verdict' };
  return { verdict: sample.verdict, correct: sample.score ?? (sample.verdict === 'pass' ? 1 : 0) };
}

/** Each judged scenario's judge, by scenario index (undefined where the scorer is a function of the text). */
export async function judgesOf(
  loaded: LoadedSuite,
  tested: ModelAdapter | undefined,
  stats: JudgeStats,
  runOptions: RunOptions,
  warnOnce: (kind: string, message: string) => void,
): Promise<Array<Judge | undefined>> {
  const judges: Array<Judge | undefined> = [];
  try {
    for (const scenario of loaded.suite.scenarios) {
      judges.push(scenario.scorer === 'judge' ? await Judge.create(scenario, loaded, tested, stats, runOptions, warnOnce) : undefined);
    }
  } catch (error) {
    await closeJudges(judges);
    throw error;
  }
  return judges;
}

export async function closeJudges(judges: Array<Judge | undefined>): Promise<void> {
  await Promise.all(judges.map((judge) => judge?.close()));
}
