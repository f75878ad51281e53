import { join } from 'node:path';
import { UsageError } from '../errors.js';
import { own } from '../records/dictionary.js';
import { FailureTally } from '../records/failures.js';
import type { EvalRecord } from '../records/types.js';
import { CompletionCache } from './cache.js';
import { ModelCalls } from './calls.js';
import { commandAdapter } from './models/command.js';
import { openaiAdapter } from './models/openai.js';
import { redactor } from './models/redact.js';
import { AdapterError, EndpointError, type ModelAdapter } from './models/types.js';
import type { RunOptions, RunStats } from './run.js';
import {
  inputText,
  JUDGE_DECODING,
  judgeFingerprint,
  judgePrompt,
  parseVerdict,
  templateHash,
  PARSER_VERSION,
  VERDICT_SCHEMA,
} from './scoring/judge-prompt.js';
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

type JudgeOptions = Pick<Scenario['scorer_options'], 'model' | 'base_url' | 'api_key_env' | 'template' | 'allow_self_judging'>;

/** The judge's adapter: its key from its own variable, its cache entries told apart by its fingerprint but the served model. */
async function judgeAdapter(options: JudgeOptions): Promise<ModelAdapter> {
  const spec = options.model!;
  const template = options.template ?? 'closed_qa';
  const revision = `judge template=${templateHash(template)} parser=${PARSER_VERSION}`;
  const rest = spec.slice(spec.indexOf(':') + 1).trim();
  if (options.api_key_env !== undefined && !process.env[options.api_key_env]) {
    throw new UsageError(`the judge ${spec} reads its key from ${options.api_key_env} (scorer_options.api_key_env), which is not set`);
  }
  if (spec.startsWith('openai:')) return openaiAdapter(rest, options.base_url, revision, options.api_key_env ?? 'OPENAI_API_KEY');
  return commandAdapter(rest.replace(/^"(.*)"$/, '$1'), revision);
}

/** Whether two adapters are the same model: the same adapter and endpoint, or the same model name. */
const sameModel = (judge: ModelAdapter, tested: ModelAdapter) => judge.id === tested.id || judge.model === tested.model;

/** One scenario's judge: its calls, and what a completion's record gets from it. */
export class Judge {
  private readonly calls: ModelCalls;
  private readonly redact: (text: string) => string;
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
    runOptions: RunOptions,
    warnOnce: (kind: string, message: string) => void,
  ) {
    // A command judge gets the environment, its key variable among it, and may quote it.
    this.redact = redactor([...adapter.secrets, options.api_key_env === undefined ? undefined : process.env[options.api_key_env]]);
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
    return new Judge(adapter, options, own(loaded.suite.prices, adapter.model), stats, runOptions, warnOnce);
  }

  /** The fields a record of `output` gets from the judge (correct, judge, provenance.scorer, or judge_error). */
  async grade(record: EvalRecord, output: string): Promise<Partial<EvalRecord>> {
    const template = this.options.template ?? 'closed_qa';
    const references = typeof record.references === 'string' ? [record.references] : (record.references ?? []);
    const prompt = judgePrompt(template, { input: inputText(record.input), output, references });
    const request = {
      scenario: record.scenario,
      id: record.id,
      ...(record.perturbation ? { perturbation: record.perturbation.name } : {}),
      ...(record.sample ? { sample: record.sample } : {}),
      messages: [{ role: 'user' as const, content: prompt }],
      settings: { ...JUDGE_DECODING },
      responseFormat: { name: 'verdict', schema: VERDICT_SCHEMA as unknown as Record<string, unknown> },
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
    const fingerprint = (served: string | undefined) => judgeFingerprint(this.options.model!, served, template);
    if (answer instanceof AdapterError) {
      if (answer.endpoint && !this.answered) {
        throw new EndpointError(this.redact(`the judge ${this.options.model} cannot answer: ${answer.message}; nothing was written`));
      }
      const error = this.redact(answer.message);
      this.stats.errors++;
      this.stats.failures.add(error);
      return { judge_error: error, provenance: { ...record.provenance, scorer: fingerprint(this.served) } };
    }
    const { completion, cached } = answer;
    if (!this.answered) [this.answered, this.served] = [true, completion.servedModel];
    if (cached) this.stats.cacheHits++;
    const usage = this.usage(completion.inputTokens, completion.outputTokens, completion.costUsd);
    const provenance = { ...record.provenance, scorer: fingerprint(completion.servedModel) };
    const verdict = parseVerdict(completion.text);
    if (verdict.verdict === 'unknown') {
      this.stats.unknown++;
      return { judge: { verdict: 'unknown', raw: this.redact(completion.text), problem: verdict.problem, ...usage }, provenance };
    }
    const { correct, ...said } = verdict;
    const reason = said.reason === undefined ? {} : { reason: this.redact(said.reason) };
    return { correct, judge: { ...said, ...reason, ...usage }, provenance };
  }

  /** A call's tokens and cost (its own, or the suite's prices of the judge model), added to the judge's totals. */
  private usage(inputTokens: number | undefined, outputTokens: number | undefined, given: number | undefined) {
    const price = this.price;
    const costUsd =
      given ??
      (price && inputTokens !== undefined && outputTokens !== undefined
        ? (inputTokens * price.input + outputTokens * price.output) / 1e6
        : undefined);
    this.stats.inputTokens += inputTokens ?? 0;
    this.stats.outputTokens += outputTokens ?? 0;
    this.stats.costUsd += costUsd ?? 0;
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
