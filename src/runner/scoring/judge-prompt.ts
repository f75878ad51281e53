import { sha256Hex } from '../../records/provenance.js';
import { MAX_FINGERPRINT_LENGTH } from '../../records/validate.js';

/*
 * A judge's side of model-graded scoring that needs no model: the built-in templates, the prompt a
 * completion is judged with, the strict parser of the judge's reply and the judge's fingerprint
 * (docs/suites.md#the-judge-scorer). The calls themselves are runner/judge.ts's.
 */

/** Bumped whenever parseVerdict reads a reply differently: it is part of every judged record's fingerprint. */
export const PARSER_VERSION = 1;

/** The reply format every template ends with, so that the parser and the prompt cannot disagree. */
const REPLY_FORMAT =
  'Reply with one JSON object and nothing else: {"verdict": "pass" or "fail", "score": a number from 0 to 1 (optional), ' +
  '"reason": "one sentence"}. A score of 0.5 or more is a pass.';

export const BUILTIN_TEMPLATES = {
  closed_qa:
    'You are grading an answer to a question against the reference answers.\n\n[Question]\n{input}\n\n' +
    '[Reference answers]\n{references}\n\n[Answer]\n{output}\n\n' +
    'The verdict is "pass" if the answer agrees with a reference answer and adds nothing that contradicts it, else "fail".',
  rubric:
    'You are grading a response with a rubric.\n\n[Task]\n{input}\n\n[Rubric]\n{references}\n\n[Response]\n{output}\n\n' +
    'Give a score from 0 (does not meet the rubric) to 1 (meets it fully), and the verdict "pass" if the score is 0.5 or more, else "fail".',
} as const;

export type BuiltinTemplate = keyof typeof BUILTIN_TEMPLATES;

/** The JSON schema the judge's reply is asked to follow (response_format) where the endpoint takes it. */
export const VERDICT_SCHEMA = {
  type: 'object',
  properties: {
    verdict: { type: 'string', enum: ['pass', 'fail'] },
    score: { type: 'number', minimum: 0, maximum: 1 },
    reason: { type: 'string' },
  },
  required: ['verdict', 'reason'],
  additionalProperties: false,
} as const;

/** A template's full text (a built-in's by name), the reply format appended. */
export function templateText(template: string): string {
  const body = Object.hasOwn(BUILTIN_TEMPLATES, template) ? BUILTIN_TEMPLATES[template as BuiltinTemplate] : template;
  return `${body}\n\n${REPLY_FORMAT}`;
}

/** The prompt of one completion: the template's placeholders filled in one pass (a completion's own "{input}" stays as it is). */
export function judgePrompt(template: string, fields: { input: string; output: string; references: string[] }): string {
  return templateText(template).replace(/\{(input|output|references)\}/g, (_, name: string) =>
    name === 'input' ? fields.input : name === 'output' ? fields.output : fields.references.map((reference) => `- ${reference}`).join('\n'),
  );
}

/** A record's `input` as the judge reads it: the text, or a chat transcript one "role: content" line a message. */
export function inputText(input: unknown): string {
  if (typeof input === 'string') return input;
  if (Array.isArray(input)) {
    return input
      .map((message) => {
        const { role, content } = (message ?? {}) as { role?: unknown; content?: unknown };
        return `${String(role)}: ${String(content)}`;
      })
      .join('\n');
  }
  return input === undefined || input === null ? '' : JSON.stringify(input);
}

export type Verdict =
  { verdict: 'pass' | 'fail'; correct: number; score?: number; reason?: string } | { verdict: 'unknown'; problem: string };

type Fields = Record<string, unknown>;

/** The one JSON value of a reply: bare, or the only thing in one fenced code block. */
export function jsonOf(reply: string): { value: unknown } | { problem: string } {
  const trimmed = reply.trim();
  const fenced = /^```(?:json)?[ \t]*\r?\n([\s\S]*?)\r?\n```$/i.exec(trimmed);
  const text = fenced ? fenced[1].trim() : trimmed;
  if (!text.startsWith('{') || !text.endsWith('}')) {
    return { problem: 'the reply is not one JSON object (bare, or alone in a fenced code block)' };
  }
  try {
    return { value: JSON.parse(text) };
  } catch {
    return { problem: 'the reply is not one JSON object (bare, or alone in a fenced code block)' };
  }
}

/**
 * The verdict in a judge's reply, read strictly (PARSER_VERSION): the reply must be one JSON object,
 * bare or alone in a fenced code block, with `verdict` "pass" or "fail", an optional `score` in [0, 1]
 * on the verdict's side of 0.5, an optional `reason` text, and no other key. Anything else (garbage, a
 * hedge, a refusal, two objects, text around the object) is unknown: never a score.
 */
export function parseVerdict(reply: string): Verdict {
  const parsed = jsonOf(reply);
  if ('problem' in parsed) return { verdict: 'unknown', problem: parsed.problem };
  const value = parsed.value;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { verdict: 'unknown', problem: 'the reply is not a JSON object' };
  }
  const fields = value as Fields;
  const extra = Object.keys(fields).find((key) => !['verdict', 'score', 'reason'].includes(key));
  if (extra !== undefined) return { verdict: 'unknown', problem: `the reply has a key besides verdict, score and reason: "${extra}"` };
  const { verdict, score, reason } = fields;
  if (verdict !== 'pass' && verdict !== 'fail') return { verdict: 'unknown', problem: 'the verdict is neither "pass" nor "fail"' };
  if (score !== undefined && (typeof score !== 'number' || !Number.isFinite(score) || score < 0 || score > 1)) {
    return { verdict: 'unknown', problem: 'the score is not a number in [0, 1]' };
  }
  if (score !== undefined && score >= 0.5 !== (verdict === 'pass')) {
    return { verdict: 'unknown', problem: `the score ${score} contradicts the verdict "${verdict}"` };
  }
  if (reason !== undefined && typeof reason !== 'string') return { verdict: 'unknown', problem: 'the reason is not text' };
  const correct = score ?? (verdict === 'pass' ? 1 : 0);
  return { verdict, correct, ...(score === undefined ? {} : { score }), ...(reason === undefined ? {} : { reason }) };
}

/** The decoding a judge is asked with: deterministic, always. */
export const JUDGE_DECODING = { temperature: 0, seed: 0, max_tokens: 512 } as const;

/** A template as the fingerprint names it: a built-in's name, else "custom", and the first 16 hex digits of its full text's SHA-256. */
export function templateHash(template: string): string {
  const name = Object.hasOwn(BUILTIN_TEMPLATES, template) ? template : 'custom';
  return `${name}:${sha256Hex(templateText(template)).slice(0, 16)}`;
}

/** How a judge asked K times per completion grades (docs/suites.md#judge-samples): part of its fingerprint when K > 1. */
export interface JudgeSampling {
  samples: number;
  aggregate: 'majority' | 'mean';
}

/** The fingerprint's and the cache revision's words for the sampling: none for one sample, as before samples existed. */
export const samplingWords = ({ samples, aggregate }: JudgeSampling): string[] =>
  samples > 1 ? [`samples=${samples}`, `aggregate=${aggregate}`] : [];

/**
 * A judge's fingerprint, the records' `provenance.scorer`: the judge model as the suite names it, the
 * model the endpoint served (when it names one), the template's hash, the decoding, the sampling (K > 1)
 * and the parser.
 * "judge model=openai:judge-v1 served=judge-v1-0613 template=closed_qa:3f2a... temperature=0 seed=0 max_tokens=512 parser=1"
 */
export function judgeFingerprint(
  model: string,
  served: string | undefined,
  template: string,
  sampling: JudgeSampling = { samples: 1, aggregate: 'majority' },
): string {
  const decoding = Object.entries(JUDGE_DECODING).map(([key, value]) => `${key}=${value}`);
  const parts = [
    `model=${model}`,
    ...(served === undefined ? [] : [`served=${served}`]),
    `template=${templateHash(template)}`,
    ...decoding,
    ...samplingWords(sampling),
  ];
  return boundedFingerprint(`judge ${parts.join(' ')} parser=${PARSER_VERSION}`);
}

/** A fingerprint within the records' bound: names beyond it are cut with their hash kept, so two still differ when the judges do. */
export function boundedFingerprint(fingerprint: string): string {
  return fingerprint.length <= MAX_FINGERPRINT_LENGTH
    ? fingerprint
    : `${fingerprint.slice(0, MAX_FINGERPRINT_LENGTH - 80)}... sha256=${sha256Hex(fingerprint)}`;
}
