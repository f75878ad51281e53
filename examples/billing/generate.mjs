#!/usr/bin/env node
// Writes the demo's synthetic evaluation records (seeded, so the files never change):
//   node examples/billing/generate.mjs [OUT_DIR]
// A billing customer-support assistant evaluated on the same 600 questions by three models:
// - baseline.jsonl:    the production model.
// - candidate-a.jsonl: more accurate and faster, but overconfident on ambiguous billing exceptions.
// - candidate-b.jsonl: a little less accurate than A, well calibrated, but slower and often rate-limited.
// Like real models, each gets some questions right that the others miss and the other way round: a
// model's luck on a question is mostly the question's (easy questions are easy for every model), partly
// its own. The records are invented by this script; no model was run.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { seededRandom } from '../../scripts/seeded-random.mjs';

const outDir = process.argv[2] ?? 'examples/billing';
const INSTANCES = 600;

const { random, normal, pick } = seededRandom(20261129);
const clamp = (x) => Math.min(0.995, Math.max(0.005, x));
const round = (x, digits) => Number(x.toFixed(digits));

const scenarios = ['billing', 'billing-exceptions', 'refunds'];
const answers = ['refund', 'escalate', 'explain-charge', 'waive-fee', 'deny'];
/** How often a model's luck on a question is the question's own (shared by every model) rather than the model's. */
const SHARED_LUCK = 0.9;

// What customers write, by the action it calls for ({amount} filled in per question).
const messages = {
  refund: [
    'I was charged twice for my subscription this month ({amount} each time).',
    'I cancelled last week but you still took {amount} from my card.',
    'A payment of {amount} went through after my account was closed.',
  ],
  escalate: [
    'There is a charge of {amount} I never made, someone is using my account.',
    'My bank says a {amount} payment to you came from another country. It was not me.',
    'Your agent promised a credit of {amount} and then hung up on me. I want a manager.',
  ],
  'explain-charge': [
    'What is this {amount} line on my invoice?',
    'Why did my bill go up by {amount} from last month?',
    'I see a {amount} "service adjustment" on my statement. What is that?',
  ],
  'waive-fee': [
    'You charged me a {amount} late fee but your payment page was down on the due date.',
    'I got a {amount} penalty after the outage you had last Tuesday.',
    'My payment bounced because you changed the account number. Please remove the {amount} fee.',
  ],
  deny: [
    'Can you refund the {amount} annual plan I bought eleven months ago?',
    'I want my {amount} back for a plan I used all month, I just did not like it.',
    'Please refund {amount} of data I already used, it was more than I expected.',
  ],
};
const openers = ['Hi,', 'Hello.', 'Good morning!', '', 'Quick question.', 'Sorry to bother you.'];

/** The message with a few letters swapped, as a hurried customer types it (the robustness variant). */
function withTypos(text) {
  return text.replace(/[a-z]{4,}/g, (word) => {
    if (random() >= 0.15) return word;
    const at = 1 + Math.floor(random() * (word.length - 2));
    return word.slice(0, at - 1) + word[at] + word[at - 1] + word.slice(at + 1);
  });
}

// The questions, shared by every model: what they are, and latent draws that make outcomes paired.
const questions = Array.from({ length: INSTANCES }, (_, i) => {
  const reference = answers[Math.floor(random() * answers.length)];
  const amount = `$${(5 + random() * 200).toFixed(2)}`;
  const message = [pick(openers), pick(messages[reference]).replace('{amount}', amount)].filter(Boolean).join(' ');
  return {
    scenario: scenarios[i % scenarios.length],
    id: `q${String(i).padStart(4, '0')}`,
    dialect: random() < 0.3 ? 'aae' : 'sae',
    reference,
    inputs: [message, withTypos(message), message], // original, typos, dialect (its records mark the group; the words stay)
    easiness: random(), // shared: easy questions are easy for every model
    luck: [random(), random(), random()], // original, typos, dialect variants
    spread: normal(),
    latencyLuck: normal(),
  };
});

const models = {
  baseline: { skill: 0.76, exceptions: -0.12, overconfident: false, latencyMs: 380, latencySpread: 0.35, failRate: 0.01 },
  'candidate-a': { skill: 0.83, exceptions: -0.1, overconfident: true, latencyMs: 300, latencySpread: 0.3, failRate: 0.005 },
  'candidate-b': { skill: 0.79, exceptions: -0.1, overconfident: false, latencyMs: 560, latencySpread: 0.45, failRate: 0.035 },
};
const variants = [
  { perturbation: undefined, penalty: 0 },
  { perturbation: { name: 'typos', kind: 'robustness' }, penalty: 0.05 },
  { perturbation: { name: 'dialect', kind: 'fairness' }, penalty: 0.02 },
];

mkdirSync(outDir, { recursive: true });
for (const [name, model] of Object.entries(models)) {
  const lines = [];
  for (const question of questions) {
    // The model's probability of answering this question right: its skill, the scenario, the question.
    const exception = question.scenario === 'billing-exceptions';
    const chance = clamp(
      model.skill + (exception ? model.exceptions : 0) - (question.dialect === 'aae' ? 0.02 : 0) + 0.5 * (question.easiness - 0.5),
    );
    variants.forEach(({ perturbation, penalty }, v) => {
      const record = {
        scenario: question.scenario,
        id: question.id,
        ...(perturbation ? { perturbation } : {}),
        input: question.inputs[v],
        references: [question.reference],
        groups: { dialect: question.dialect },
      };
      const failed = random() < model.failRate;
      const latency = round(model.latencyMs * Math.exp(model.latencySpread * (question.latencyLuck + 0.3 * normal())), 1);
      if (failed) {
        lines.push(JSON.stringify({ ...record, error: 'HTTP 429: rate limited', latency_ms: latency }));
        return;
      }
      const luck = random() < SHARED_LUCK ? question.luck[v] : random();
      const right = luck < chance - penalty;
      // A calibrated model's confidence is its real chance (with some noise); an overconfident one
      // claims near certainty on billing exceptions whatever its chance.
      const confidence = model.overconfident && exception ? 0.97 + 0.02 * random() : clamp(chance - penalty + 0.05 * question.spread);
      const prediction = right
        ? question.reference
        : answers[(answers.indexOf(question.reference) + 1 + Math.floor(random() * 4)) % answers.length];
      const outputTokens = Math.max(5, Math.round(40 + 12 * normal()));
      lines.push(
        JSON.stringify({
          ...record,
          prediction,
          correct: right ? 1 : 0,
          confidence: round(confidence, 4),
          latency_ms: latency,
          input_tokens: 60,
          output_tokens: outputTokens,
          cost_usd: round(60 * 2.5e-6 + outputTokens * 1e-5, 8),
          toxicity: round(0.05 * random(), 4),
        }),
      );
    });
  }
  writeFileSync(join(outDir, `${name}.jsonl`), `${lines.join('\n')}\n`);
}
