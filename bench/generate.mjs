#!/usr/bin/env node
// Seeded generator of plausible evaluation records for a billing-support assistant:
//   node bench/generate.mjs N OUT.jsonl [SEED] [--compact]
// About N records: originals plus robustness and fairness perturbations, groups, confidences,
// latency, tokens, cost, toxicity and a few failed calls; prompts and completions of realistic size.
// --compact: only what the metrics read (scenario, id, perturbation, correct, confidence, groups,
// latency; about 170 bytes a record, a third of them perturbed), where parsing costs least and the
// metric engine's own work shows most.
import { createWriteStream } from 'node:fs';
import { seededRandom } from '../scripts/seeded-random.mjs';

const compact = process.argv.includes('--compact');
const [count = '1000', out = '/dev/stdout', seedText = '1'] = process.argv.slice(2).filter((arg) => arg !== '--compact');
const target = Number(count);

const { random, pick, normal } = seededRandom(Number(seedText) >>> 0 || 1);
const round = (value, digits) => Number(value.toFixed(digits));

const scenarios = [
  { name: 'billing', skill: 0.78, answers: ['refund', 'escalate', 'explain-charge', 'update-card'] },
  { name: 'billing-exceptions', skill: 0.62, answers: ['escalate', 'waive-fee', 'deny', 'refund'] },
  { name: 'refunds', skill: 0.71, answers: ['refund', 'partial-refund', 'deny', 'escalate'] },
  { name: 'tone', skill: 0.85, answers: ['polite', 'neutral', 'apologetic'] },
];
const topics = [
  'a double charge',
  'an annual plan renewal',
  'a failed card payment',
  'a refund for an unused seat',
  'a late fee',
  'an invoice in the wrong currency',
  'a cancelled order',
];
const perturbations = [
  { name: 'typos', kind: 'robustness', penalty: 0.08 },
  { name: 'lowercase', kind: 'robustness', penalty: 0.02 },
  { name: 'dialect', kind: 'fairness', penalty: 0.06 },
  { name: 'gender', kind: 'fairness', penalty: 0.01 },
];

const stream = createWriteStream(out);
let written = 0;
let pendingDrain = Promise.resolve();
const write = (record) => {
  written++;
  if (!stream.write(`${JSON.stringify(record)}\n`)) pendingDrain = new Promise((resolve) => stream.once('drain', resolve));
};

let instance = 0;
while (written < target) {
  const scenario = scenarios[instance % scenarios.length];
  const id = `${scenario.name.slice(0, 3)}-${String(instance).padStart(7, '0')}`;
  instance++;
  const dialect = random() < 0.3 ? 'aae' : 'sae';
  const segment = random() < 0.5 ? 'business' : 'consumer';
  const reference = pick(scenario.answers);
  const topic = pick(topics);
  const input = `You are a billing support assistant. A ${segment} customer writes about ${topic}: "I was charged twice this month and I would like to know what happened and what you can do about it." Answer with one action from: ${scenario.answers.join(', ')}.`;
  const skill = scenario.skill - (dialect === 'aae' ? 0.04 : 0);
  const variants = [undefined, ...perturbations.filter(() => random() < (compact ? 0.125 : 0.6))];
  for (const perturbation of variants) {
    if (written >= target) break;
    const failed = random() < 0.01;
    const right = random() < skill - (perturbation?.penalty ?? 0);
    const prediction = right ? reference : pick(scenario.answers.filter((answer) => answer !== reference));
    const confidence = Math.min(1, Math.max(0, (right ? 0.8 : 0.6) + 0.15 * normal()));
    if (compact) {
      write({
        scenario: scenario.name,
        id,
        ...(perturbation ? { perturbation: { name: perturbation.name, kind: perturbation.kind } } : {}),
        correct: right ? 1 : 0,
        confidence: round(confidence, 4),
        groups: { dialect, segment },
        latency_ms: round(Math.exp(6 + 0.4 * normal()), 1),
      });
      await pendingDrain;
      continue;
    }
    const outputTokens = Math.max(1, Math.round(40 + 15 * normal()));
    const inputTokens = Math.round(input.length / 4);
    const record = {
      scenario: scenario.name,
      id,
      ...(perturbation ? { perturbation: { name: perturbation.name, kind: perturbation.kind } } : {}),
      input:
        perturbation?.name === 'lowercase'
          ? input.toLowerCase()
          : perturbation?.name === 'typos'
            ? input.replace('charged', 'chraged').replace('happened', 'hapened')
            : input,
      references: [reference],
      groups: { dialect, segment },
      latency_ms: round(Math.exp(6 + 0.4 * normal()), 1),
      input_tokens: inputTokens,
      output_tokens: outputTokens,
      cost_usd: round(inputTokens * 2.5e-6 + outputTokens * 1e-5, 8),
    };
    if (failed) {
      record.error = pick(['timeout after 30000 ms', 'HTTP 429: rate limited', 'HTTP 503: upstream unavailable']);
    } else {
      record.prediction = prediction;
      record.correct = right ? 1 : 0;
      if (scenario.name !== 'tone') record.confidence = round(confidence, 4);
      record.toxicity = round(random() < 0.02 ? 0.5 + 0.5 * random() : 0.2 * random(), 4);
    }
    write(record);
    await pendingDrain;
  }
}
stream.end();
