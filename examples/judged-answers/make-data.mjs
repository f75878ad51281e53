#!/usr/bin/env node
// Writes answers.jsonl and model.json, the worked example's data (run once; the files are committed):
//   node examples/judged-answers/make-data.mjs
// Thirty open questions, the scripted model's answer to each, and a person's grade of half of those
// answers (`human`). The kinds of answer are chosen so that the scripted judge (judge.mjs) errs both ways.
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));

// [question, references, the model's answer, kind]: right; right in words the judge does not match
// ("synonym"); wrong but naming the reference ("negated", which the judge passes); wrong; empty.
const QUESTIONS = [
  ['What is the capital of France?', ['Paris'], 'Paris is the capital of France.', 'right'],
  ['What is the capital of Japan?', ['Tokyo'], 'Tokyo.', 'right'],
  ['What is the capital of Italy?', ['Rome'], 'The capital is Rome.', 'right'],
  ['What is the capital of Spain?', ['Madrid'], 'Madrid', 'right'],
  ['What is the capital of Canada?', ['Ottawa'], 'Ottawa, in Ontario.', 'right'],
  ['Which planet is known as the red planet?', ['Mars'], 'Mars.', 'right'],
  ['Which gas do plants absorb from the air?', ['carbon dioxide', 'CO2'], 'They absorb carbon dioxide.', 'right'],
  ['What is the chemical symbol of gold?', ['Au'], 'Au', 'right'],
  ['Who wrote Hamlet?', ['William Shakespeare', 'Shakespeare'], 'Shakespeare wrote it.', 'right'],
  ['What is the largest ocean?', ['Pacific Ocean', 'Pacific'], 'The Pacific.', 'right'],
  ['What is the boiling point of water at sea level in Celsius?', ['100'], '100 degrees.', 'right'],
  ['Which metal is liquid at room temperature?', ['mercury'], 'Mercury.', 'right'],
  ['What is the hardest natural material?', ['diamond'], 'Diamond.', 'right'],
  ['Which organ pumps blood through the body?', ['heart'], 'The heart.', 'right'],
  ['What language is spoken in Brazil?', ['Portuguese'], 'Portuguese.', 'right'],
  ['Who painted the Mona Lisa?', ['Leonardo da Vinci', 'da Vinci'], 'Leonardo da Vinci.', 'right'],
  ['What is the currency of the United Kingdom?', ['pound sterling', 'pound'], 'The pound.', 'right'],
  ['What is the smallest prime number?', ['2', 'two'], '2', 'right'],
  ['How many continents are there?', ['seven'], '7', 'synonym'],
  ['How many sides has a hexagon?', ['six'], '6 sides.', 'synonym'],
  ['What is the capital of Australia?', ['Canberra'], 'Not Canberra: Sydney is the capital.', 'negated'],
  ['What is the largest planet?', ['Jupiter'], 'Saturn, which is larger than Jupiter.', 'negated'],
  ['What is the freezing point of water in Celsius?', ['0', 'zero'], 'It is 32, not 0.', 'negated'],
  ['Who discovered penicillin?', ['Alexander Fleming', 'Fleming'], 'Louis Pasteur.', 'wrong'],
  ['What is the longest river in Africa?', ['Nile'], 'The Congo.', 'wrong'],
  ['What is the capital of Turkey?', ['Ankara'], 'Istanbul.', 'wrong'],
  ['What is the square root of 81?', ['9', 'nine'], '8', 'wrong'],
  ['Which element has the symbol O?', ['oxygen'], 'Osmium.', 'wrong'],
  ['What is the tallest mountain on Earth?', ['Mount Everest', 'Everest'], 'K2.', 'wrong'],
  ['In which year did the Second World War end?', ['1945'], '', 'empty'],
];

// A person graded the answers of the first ten "right" questions, both "synonym" ones, the three
// "negated" ones and the first five "wrong" ones: 12 labelled right, 8 labelled wrong.
const labelled = new Set([...QUESTIONS.keys()].filter((index) => index < 10 || (index >= 18 && index < 28)));
const HUMAN = { right: 1, synonym: 1, negated: 0, wrong: 0, empty: 0 };

const lines = QUESTIONS.map(([input, references, , kind], index) =>
  JSON.stringify({ id: `q${index + 1}`, input, references, ...(labelled.has(index) ? { human: HUMAN[kind] } : {}) }),
);
writeFileSync(join(here, 'answers.jsonl'), `${lines.join('\n')}\n`);
writeFileSync(
  join(here, 'model.json'),
  `${JSON.stringify(Object.fromEntries(QUESTIONS.map(([input, , answer]) => [input, answer])), null, 2)}\n`,
);
