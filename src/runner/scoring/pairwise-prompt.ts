import { sha256Hex } from '../../records/provenance.js';
import { boundedFingerprint, jsonOf, JUDGE_DECODING, PARSER_VERSION } from './judge-prompt.js';

/*
 * Pairwise judging's side that needs no model (docs/suites.md#pairwise-judging): the built-in `pairwise`
 * template, the strict parser of its reply ({"verdict": "A" | "B" | "tie", "reason"}), and what two
 * verdicts, one per order of the answers, come to for the candidate: a win, a loss, or a tie, a tie
 * too when the verdict changed with the order (a flip).
 */

const PAIRWISE_REPLY_FORMAT =
  'Reply with one JSON object and nothing else: {"verdict": "A", "B" or "tie", "reason": "one sentence"}. ' +
  'Judge what the answers say, not their order or their length.';

/** The built-in pairwise template: the question, the references, and two answers in the order asked. */
export const PAIRWISE_TEMPLATE =
  'You are comparing two answers to the same question against the reference answers.\n\n[Question]\n{input}\n\n' +
  '[Reference answers]\n{references}\n\n[Answer A]\n{output_a}\n\n[Answer B]\n{output_b}\n\n' +
  'The verdict is "A" if answer A is the better answer, "B" if answer B is, and "tie" if neither is better.\n\n' +
  PAIRWISE_REPLY_FORMAT;

/** The JSON schema of the pairwise reply (response_format) where the endpoint takes it. */
export const PAIRWISE_SCHEMA = {
  type: 'object',
  properties: { verdict: { type: 'string', enum: ['A', 'B', 'tie'] }, reason: { type: 'string' } },
  required: ['verdict', 'reason'],
  additionalProperties: false,
} as const;

/** The prompt comparing answers A and B, the placeholders filled in one pass (an answer's own "{output_b}" stays as it is). */
export function pairwisePrompt(fields: { input: string; references: string[]; outputA: string; outputB: string }): string {
  return PAIRWISE_TEMPLATE.replace(/\{(input|references|output_a|output_b)\}/g, (_, name: string) => {
    if (name === 'input') return fields.input;
    if (name === 'references') return fields.references.map((reference) => `- ${reference}`).join('\n');
    return name === 'output_a' ? fields.outputA : fields.outputB;
  });
}

export type PairwiseVerdict = { verdict: 'A' | 'B' | 'tie'; reason?: string } | { verdict: 'unknown'; problem: string };

/**
 * The verdict of a pairwise reply, read as strictly as parseVerdict reads a grade (PARSER_VERSION): one
 * JSON object, bare or alone in a fenced code block, `verdict` "A", "B" or "tie", an optional `reason`
 * text and no other key. Anything else is unknown.
 */
export function parsePairwiseVerdict(reply: string): PairwiseVerdict {
  const parsed = jsonOf(reply);
  if ('problem' in parsed) return { verdict: 'unknown', problem: parsed.problem };
  const value = parsed.value;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { verdict: 'unknown', problem: 'the reply is not a JSON object' };
  }
  const fields = value as Record<string, unknown>;
  const extra = Object.keys(fields).find((key) => key !== 'verdict' && key !== 'reason');
  if (extra !== undefined) return { verdict: 'unknown', problem: `the reply has a key besides verdict and reason: "${extra}"` };
  const { verdict, reason } = fields;
  if (verdict !== 'A' && verdict !== 'B' && verdict !== 'tie') {
    return { verdict: 'unknown', problem: 'the verdict is none of "A", "B" and "tie"' };
  }
  if (reason !== undefined && typeof reason !== 'string') return { verdict: 'unknown', problem: 'the reason is not text' };
  return { verdict, ...(reason === undefined ? {} : { reason }) };
}

export type PairwiseOutcome = 'win' | 'loss' | 'tie' | 'unknown';

/** What one order's verdict says of the candidate: asked candidate first, "A" is the candidate; asked baseline first, "B" is. */
function candidateSide(verdict: PairwiseVerdict['verdict'], candidateFirst: boolean): PairwiseOutcome {
  if (verdict === 'unknown' || verdict === 'tie') return verdict;
  return (verdict === 'A') === candidateFirst ? 'win' : 'loss';
}

/**
 * The candidate's outcome from the verdicts of both orders: unknown when either is unknown (never a
 * win); what both say when they agree; a tie, `flipped`, when they differ (the verdict moved with the
 * order: the judge's position bias, not the answers, decided one of them).
 */
export function pairwiseOutcome(
  candidateFirst: PairwiseVerdict['verdict'],
  baselineFirst: PairwiseVerdict['verdict'],
): { outcome: PairwiseOutcome; flipped?: boolean } {
  const first = candidateSide(candidateFirst, true);
  const second = candidateSide(baselineFirst, false);
  if (first === 'unknown' || second === 'unknown') return { outcome: 'unknown' };
  return first === second ? { outcome: first, flipped: false } : { outcome: 'tie', flipped: true };
}

/** Which answer is longer, in characters (code points): the length-bias probe's record. */
export function longerAnswer(candidate: string, baseline: string): 'candidate' | 'baseline' | 'same' {
  const [c, b] = [[...candidate].length, [...baseline].length];
  return c === b ? 'same' : c > b ? 'candidate' : 'baseline';
}

/**
 * The pairwise judge's fingerprint (a record's `judge_pairwise.fingerprint`): the judge, the model it
 * served, the template's hash, the decoding and the parser.
 */
export function pairwiseFingerprint(model: string, served: string | undefined): string {
  const decoding = Object.entries(JUDGE_DECODING).map(([key, value]) => `${key}=${value}`);
  const parts = [
    `model=${model}`,
    ...(served === undefined ? [] : [`served=${served}`]),
    `template=pairwise:${sha256Hex(PAIRWISE_TEMPLATE).slice(0, 16)}`,
    ...decoding,
  ];
  return boundedFingerprint(`pairwise judge ${parts.join(' ')} parser=${PARSER_VERSION}`);
}
