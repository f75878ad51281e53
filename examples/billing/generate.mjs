#!/usr/bin/env node
// Writes the demo's synthetic evaluation records (seeded, so the files never change):
//   node examples/billing/generate.mjs [OUT_DIR]
// A billing customer-support assistant evaluated on the same 600 questions by three models:
// - baseline.jsonl:    the production model.
// - candidate-a.jsonl: more accurate and faster, but overconfident on ambiguous billing exceptions.
// - candidate-b.jsonl: a little less accurate than A, well calibrated, but slower and often rate-limited.
// The records are invented by this script; no model was run.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { seededRandom } from '../../scripts/seeded-random.mjs';

const outDir = process.argv[2] ?? 'examples/billing';
const INSTANCES = 600;

const { random, normal } = seededRandom(20261129);
const clamp = (x) => Math.min(0.995, Math.max(0.005, x));
const round = (x, digits) => Number(x.toFixed(digits));

const scenarios = ['billing', 'billing-exceptions', 'refunds'];
const answers = ['refund', 'escalate', 'explain-charge', 'waive-fee', 'deny'];

// The questions, shared by every model: what they are, and latent draws that make outcomes paired.
const questions = Array.from({ length: INSTANCES }, (_, i) => ({
  scenario: scenarios[i % scenarios.length],
  id: `q${String(i).padStart(4, '0')}`,
  dialect: random() < 0.3 ? 'aae' : 'sae',
  reference: answers[Math.floor(random() * answers.length)],
  easiness: random(), // shared: easy questions are easy for every model
  luck: [random(), random(), random()], // original, typos, dialect variants
  spread: normal(),
  latencyLuck: normal(),
}));

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
        input: `A customer writes about a billing problem (${question.scenario}, question ${question.id}). What should the assistant do?`,
        references: [question.reference],
        groups: { dialect: question.dialect },
      };
      const failed = random() < model.failRate;
      const latency = round(model.latencyMs * Math.exp(model.latencySpread * (question.latencyLuck + 0.3 * normal())), 1);
      if (failed) {
        lines.push(JSON.stringify({ ...record, error: 'HTTP 429: rate limited', latency_ms: latency }));
        return;
      }
      const right = question.luck[v] < chance - penalty;
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
