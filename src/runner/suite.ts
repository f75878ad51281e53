import { readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { z } from 'zod';
import { parseYamlConfig } from '../config/yaml-config.js';
import { ConfigError, InputError } from '../errors.js';
import { MAX_JUDGE_SAMPLES, MAX_NAME_LENGTH } from '../limits.js';
import { dictionarySchema } from '../records/dictionary-schema.js';
import { hashOf, sha256Hex } from '../records/provenance.js';
import { forEachJsonLine } from '../records/read.js';
import { BUILTIN_TEMPLATES } from './scoring/judge-prompt.js';
import { PERTURBATIONS, type PerturbationName } from './scoring/perturbations.js';
import { compileRegexScorer, SCORERS, type ScorerName } from './scoring/scorers.js';

/*
 * The suite file: scenarios, each with its data (instances, JSON Lines), a prompt template, a scorer,
 * generation settings and the perturbations to apply; and the price table of the models.
 */

const generationSchema = z.strictObject({
  max_tokens: z.int().min(1).optional(),
  temperature: z.number().min(0).max(2).optional(),
  top_p: z.number().gt(0).max(1).optional(),
  stop: z.array(z.string()).optional(),
});

/** A regex scorer's pattern, compiled as the scorer compiles it: a bad one, or one RE2 does not support, is found before the model is asked anything. */
const regexPattern = z.string().superRefine((pattern, context) => {
  try {
    compileRegexScorer(pattern);
  } catch (error) {
    // RE2JS quotes the pattern with the dot-matches-newline flag it was given: "(?s)".
    const message = (error as Error).message.replace(/^error parsing regexp: /, '').replace('`(?s)', '`');
    context.addIssue({ code: 'custom', message: `not a pattern the linear-time engine (RE2) reads: ${message}` });
  }
});

/** An environment variable's name: where a judge's key is read from (never the key itself, in a file that is committed). */
const envName = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must name an environment variable (letters, digits, "_"), not hold a key');

const scorerOptionsSchema = z.strictObject({
  pattern: regexPattern.optional(),
  tolerance: z.number().nonnegative().optional(),
  /** The judge scorer's (docs/suites.md#the-judge-scorer). */
  model: z.string().min(1).optional().describe('judge: openai:NAME or command:"CMD ARGS"'),
  base_url: z.string().min(1).optional(),
  api_key_env: envName.optional(),
  api_key: z
    .never({ error: 'a key never goes in the suite file: name the environment variable that holds it with api_key_env' })
    .optional(),
  template: z.string().min(1).optional().describe('judge: closed_qa, rubric, or a template with {input}, {output}, {references}'),
  allow_self_judging: z.boolean().optional(),
  judge_samples: z.int().min(1).max(MAX_JUDGE_SAMPLES).optional().describe('judge: ask the judge K times per completion'),
  judge_aggregate: z.enum(['majority', 'mean']).optional().describe("judge: the K verdicts' majority (default), or their mean grade"),
  judge_pairwise: z.literal('baseline').optional().describe("judge: compare each completion with the baseline's (--baseline-records)"),
  length_bias_probe: z.boolean().optional().describe('judge: record which of the two compared completions is longer'),
});

/** Scenario names, ids and groups become the records' (src/limits.ts): refused here rather than in the records. */
const name = z.string().min(1).max(MAX_NAME_LENGTH);

const scenarioSchema = z.strictObject({
  name,
  data: z.string().min(1).describe('Instances (JSON Lines), relative to the suite file'),
  prompt: z.string().min(1).default('{input}').describe('Template: {input}, {choices} (lettered), {references}'),
  system: z.string().optional(),
  scorer: z.enum(SCORERS as [ScorerName, ...ScorerName[]]),
  scorer_options: scorerOptionsSchema.default({}),
  generation: generationSchema.default({}),
  perturbations: z.array(z.enum(Object.keys(PERTURBATIONS) as [PerturbationName, ...PerturbationName[]])).default([]),
  typo_probability: z.number().gt(0).max(1).default(0.05),
});

export const suiteSchema = z.strictObject({
  version: z.literal(1),
  name: z.string().min(1),
  description: z.string().optional(),
  /** US dollars per million tokens, by model name. */
  prices: z.record(z.string(), z.strictObject({ input: z.number().nonnegative(), output: z.number().nonnegative() })).default({}),
  generation: generationSchema.default({}).describe('Defaults for every scenario'),
  scenarios: z.array(scenarioSchema).min(1),
});

export type Suite = z.infer<typeof suiteSchema>;
export type Scenario = z.infer<typeof scenarioSchema>;
export type GenerationSettings = z.infer<typeof generationSchema>;

const chatMessageSchema = z.strictObject({ role: z.enum(['system', 'user', 'assistant']), content: z.string() });
/** One instance of a scenario's data (a line of its JSON Lines file); fields beyond these are kept and ignored. */
const instanceSchema = z.looseObject({
  id: z.union([name, z.number()]).transform(String),
  input: z.string().optional(),
  messages: z.array(chatMessageSchema).min(1).optional(),
  references: z
    .union([z.string(), z.array(z.string()).min(1, 'needs at least one reference: an instance without one cannot be scored')], {
      error: 'must be a string or an array of strings',
    })
    .transform((value) => (Array.isArray(value) ? value : [value])),
  choices: z.array(z.string()).optional(),
  /** A person's grade of the instance's answers (1 right, 0 wrong, or a score): kept on its records, for the judge's agreement. */
  human: z.union([z.number().min(0).max(1), z.boolean().transform(Number)]).optional(),
  groups: dictionarySchema(z.union([name, z.number(), z.boolean()]).transform(String), name).optional(),
});

export type ChatMessage = z.output<typeof chatMessageSchema>;
export type Instance = z.output<typeof instanceSchema>;

export interface LoadedSuite {
  suite: Suite;
  file: string;
  /** The suite's hash: of its file and its data files (suiteHash); the records' provenance.suite_hash. */
  sha256: string;
  /** Instances per scenario name, in file order. */
  instances: Map<string, Instance[]>;
}

/** A bad instance's first problem in words: a field left out is named as missing (zod says only "Invalid input"). */
function instanceProblem(issue: z.core.$ZodIssue, instance: unknown): string {
  const field = issue.path.join('.');
  if (field === '') return `an instance must be a JSON object (${issue.message.replace(/^Invalid input: /, '')})`;
  const value = issue.path.reduce<unknown>(
    (inside, key) => (typeof inside === 'object' && inside !== null ? (inside as Record<string, unknown>)[String(key)] : undefined),
    instance,
  );
  if (value === undefined) return `"${field}" is missing`;
  return `"${field}": ${issue.message.replace(/^Invalid input: /, '')}`;
}

async function readInstances(file: string, shownAs: string): Promise<Instance[]> {
  const instances: Instance[] = [];
  const seen = new Set<string>();
  const onValue = (value: unknown, line: number) => {
    const parsed = instanceSchema.safeParse(value);
    if (!parsed.success) {
      throw new InputError(shownAs, line, instanceProblem(parsed.error.issues[0], value));
    }
    const instance = parsed.data;
    if ((instance.input === undefined) === (instance.messages === undefined)) {
      throw new InputError(shownAs, line, 'an instance needs exactly one of "input" and "messages"');
    }
    if (seen.has(instance.id)) throw new InputError(shownAs, line, `"id" ${instance.id} appears twice`);
    seen.add(instance.id);
    instances.push(instance);
  };
  await forEachJsonLine(file, onValue, {
    displayName: shownAs,
    kind: 'the data of a scenario',
    whenMissing: 'no such file (data of the suite)',
  });
  if (instances.length === 0) throw new InputError(shownAs, undefined, 'no instances');
  return instances;
}

export async function loadSuite(file: string): Promise<LoadedSuite> {
  let bytes: Buffer;
  try {
    bytes = await readFile(file);
  } catch {
    throw new ConfigError([`${file}: no such file`]);
  }
  const text = bytes.toString('utf8');
  const suite = parseYamlConfig(text, file, suiteSchema, {
    parsed: (parsed, report) => {
      const names = new Set<string>();
      parsed.scenarios.forEach((scenario, index) => {
        if (names.has(scenario.name)) report(['scenarios', index, 'name'], `scenario "${scenario.name}" appears twice`);
        names.add(scenario.name);
        judgeOptionsProblems(scenario).forEach(([key, message]) => report(['scenarios', index, ...key], message));
      });
    },
  });
  const instances = new Map<string, Instance[]>();
  const dataHashes: string[] = [];
  for (const scenario of suite.scenarios) {
    const dataFile = resolve(dirname(file), scenario.data);
    instances.set(scenario.name, await readInstances(dataFile, `${dirname(file)}/${scenario.data}`.replace(/^\.\//, '')));
    dataHashes.push(sha256Hex(await readFile(dataFile)));
  }
  return { suite, file, sha256: suiteHash(sha256Hex(bytes), dataHashes), instances };
}

const JUDGE_ONLY = [
  'model',
  'base_url',
  'api_key_env',
  'template',
  'allow_self_judging',
  'judge_samples',
  'judge_aggregate',
  'judge_pairwise',
  'length_bias_probe',
] as const;

/** What is wrong with a scenario's judge options: missing where it judges, given where it does not, a template without {output}. */
function judgeOptionsProblems({ scorer, scorer_options: options }: Scenario): Array<[string[], string]> {
  if (scorer !== 'judge') {
    return JUDGE_ONLY.filter((key) => options[key] !== undefined).map((key) => [
      ['scorer_options', key],
      `only the judge scorer takes "${key}" (this scenario's scorer is ${scorer})`,
    ]);
  }
  const problems: Array<[string[], string]> = [];
  if (options.model === undefined) problems.push([['scorer_options'], 'the judge scorer needs "model": openai:NAME or command:"CMD ARGS"']);
  else if (!/^(openai|command):./.test(options.model)) {
    problems.push([['scorer_options', 'model'], `a judge is openai:NAME or command:"CMD ARGS", got "${options.model}"`]);
  }
  const template = options.template ?? 'closed_qa';
  if (!Object.hasOwn(BUILTIN_TEMPLATES, template) && !template.includes('{output}')) {
    problems.push([['scorer_options', 'template'], 'closed_qa, rubric, or a template that shows the judge the {output}']);
  }
  if (options.length_bias_probe === true && options.judge_pairwise === undefined) {
    problems.push([
      ['scorer_options', 'length_bias_probe'],
      'the length-bias probe reads pairwise verdicts: give judge_pairwise: baseline',
    ]);
  }
  return problems;
}

/**
 * What the suite was, as one hash: of the canonical JSON array of the SHA-256 (hex) of the suite file's
 * bytes followed by those of each scenario's data file, in the suite's order (a template or a data edit changes it).
 */
export function suiteHash(suiteFile: string, dataFiles: string[]): string {
  return hashOf([suiteFile, ...dataFiles]);
}

/** The chat messages of an instance under its scenario's template (and perturbed input, if any). */
export function messagesFor(scenario: Scenario, instance: Instance, input: string | undefined): ChatMessage[] {
  if (instance.messages) return instance.messages;
  const choices = (instance.choices ?? []).map((choice, index) => `${String.fromCharCode(65 + index)}. ${choice}`).join('\n');
  const user = scenario.prompt.replace(/\{(input|choices|references)\}/g, (_, name: string) =>
    name === 'input' ? (input ?? '') : name === 'choices' ? choices : instance.references.join(' | '),
  );
  return [...(scenario.system ? [{ role: 'system' as const, content: scenario.system }] : []), { role: 'user', content: user }];
}
