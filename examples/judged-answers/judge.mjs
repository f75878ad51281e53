#!/usr/bin/env node
// The worked example's judge: a scripted one, no network, speaking evalgate's command protocol. It reads
// the answer and the reference answers out of the closed_qa prompt and passes an answer that contains
// every word of some reference; it cannot grade an empty answer (a reply that is no verdict: unknown).
// Like real judges it errs both ways: it fails "7" against "seven", and passes "Not Canberra: Sydney".
import { createInterface } from 'node:readline';

/** A section of the prompt: the lines after "[Name]" up to the next blank line. */
const section = (prompt, name) => new RegExp(`\\[${name}\\]\\n([\\s\\S]*?)\\n\\n`).exec(prompt)?.[1] ?? '';
const words = (text) => text.toLowerCase().match(/[a-z0-9]+/g) ?? [];

function grade(prompt) {
  const answer = section(prompt, 'Answer').trim();
  if (answer === '') return 'I cannot grade an empty answer.';
  const references = section(prompt, 'Reference answers')
    .split('\n')
    .map((line) => line.replace(/^- /, ''));
  const said = new Set(words(answer));
  const match = references.find((reference) => words(reference).every((word) => said.has(word)));
  return JSON.stringify(
    match === undefined ? { verdict: 'fail', reason: 'no reference answer in it' } : { verdict: 'pass', reason: `it says ${match}` },
  );
}

createInterface({ input: process.stdin }).on('line', (line) => {
  const request = JSON.parse(line);
  process.stdout.write(`${JSON.stringify({ id: request.id, text: grade(request.messages.at(-1).content) })}\n`);
});
