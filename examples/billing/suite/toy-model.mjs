#!/usr/bin/env node
// A toy "model" speaking evalgate's command protocol (JSON Lines on stdin/stdout), for the example
// suite and the tests: it picks an action by keywords in the customer's message, with a made-up
// confidence. Not a real model.
//   evalgate run --suite examples/billing/suite/suite.yml --model 'command:node examples/billing/suite/toy-model.mjs'
import { createInterface } from 'node:readline';

const rules = [
  [/charged twice|double charge|duplicate/i, 'refund', 0.9],
  [/late fee|penalty/i, 'waive-fee', 0.7],
  [/card|expired|payment method/i, 'update-card', 0.8],
  [/fraud|didn't make|did not make|unauthori[sz]ed/i, 'escalate', 0.85],
  [/what is|what's|explain|why/i, 'explain-charge', 0.6],
];

/**
 * What the customer wrote, and nothing of the prompt around it: the last user message, after its
 * "Customer:" label and before the prompt's next labelled line ("Actions: refund, update-card, ..."
 * would otherwise match the card rule on every question).
 */
function customerWords(messages) {
  const user = messages.filter((message) => message.role === 'user').pop()?.content ?? '';
  return user
    .split('Customer:')
    .pop()
    .split(/\n[A-Z][A-Za-z ]*:/)[0];
}

createInterface({ input: process.stdin }).on('line', (line) => {
  const request = JSON.parse(line);
  const text = request.messages.map((message) => message.content).join('\n');
  const customer = customerWords(request.messages);
  const [, answer, confidence] = rules.find(([pattern]) => pattern.test(customer)) ?? [null, 'deny', 0.4];
  const delay = Number(process.env.TOY_MODEL_DELAY_MS ?? 0);
  setTimeout(() => {
    process.stdout.write(
      `${JSON.stringify({ id: request.id, text: answer, confidence, input_tokens: Math.ceil(text.length / 4), output_tokens: 2 })}\n`,
    );
  }, delay);
});
