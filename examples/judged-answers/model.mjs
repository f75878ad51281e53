#!/usr/bin/env node
// The worked example's model under test: a scripted one speaking evalgate's command protocol (JSON Lines
// on stdin and stdout), answering each question as model.json says. Not a real model: its answers are
// fixed, so that the person's grades in answers.jsonl (`human`) grade the very answers the judge sees.
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';

const answers = JSON.parse(readFileSync(new URL('model.json', import.meta.url), 'utf8'));

createInterface({ input: process.stdin }).on('line', (line) => {
  const request = JSON.parse(line);
  const question = request.messages.at(-1).content;
  process.stdout.write(`${JSON.stringify({ id: request.id, text: answers[question] ?? 'I do not know.' })}\n`);
});
