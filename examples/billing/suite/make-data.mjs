#!/usr/bin/env node
// Writes the example suite's instances (seeded; synthetic customer messages, each with the action a
// billing assistant should take): node examples/billing/suite/make-data.mjs
import { writeFileSync } from 'node:fs';
import { seededRandom } from '../../../scripts/seeded-random.mjs';

const { random, pick } = seededRandom(7);

const situations = {
  billing: [
    ['I was charged twice for my subscription this month.', 'refund'],
    ['My card expired, how do I keep my plan running?', 'update-card'],
    ['What is this $4.99 line on my invoice?', 'explain-charge'],
    ['Why did my bill go up from last month?', 'explain-charge'],
    ['I see a duplicate payment on my statement.', 'refund'],
    ['Please change the payment method on my account.', 'update-card'],
  ],
  'billing-exceptions': [
    ["I didn't make this purchase, someone used my account.", 'escalate'],
    ['You charged me a late fee but I paid on time, the bank was closed.', 'waive-fee'],
    ['There is a penalty on my account after the outage you had.', 'waive-fee'],
    ['An unauthorized charge from another country showed up.', 'escalate'],
    ['I want my money back for a plan I never used, it is past the refund window.', 'deny'],
    ['Can you refund the annual plan I bought eleven months ago?', 'deny'],
  ],
};
const openers = ['Hi,', 'Hello there.', 'Good morning!', '', 'Hey, quick question.', 'Sorry to bother you.'];
const names = ['John', 'Emily', 'Michael', 'Sarah', 'David', 'Anne'];
const closers = [
  'Thanks.',
  'Thank you, {name}.',
  '',
  'My husband is not happy about it.',
  'Please help, I do not know what to do.',
  'Regards, {name}',
];

for (const [scenario, cases] of Object.entries(situations)) {
  const lines = [];
  for (let i = 0; i < 120; i++) {
    const [message, action] = pick(cases);
    const name = pick(names);
    const input = [pick(openers), message, pick(closers).replace('{name}', name)].filter(Boolean).join(' ');
    lines.push(
      JSON.stringify({
        id: `${scenario.slice(0, 3)}-${String(i).padStart(3, '0')}`,
        input,
        references: [action],
        groups: { segment: random() < 0.5 ? 'business' : 'consumer' },
      }),
    );
  }
  writeFileSync(new URL(`./${scenario}.jsonl`, import.meta.url), `${lines.join('\n')}\n`);
}
