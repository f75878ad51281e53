import { describe, expect, it } from '@jest/globals';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { lexicalToxicity } from '../src/runner/scoring/toxicity.js';
import { evalgate, readJsonLines, TOY_MODEL, writeSuite } from './helpers/evalgate.js';
import { tempDir } from './helpers/records.js';

describe('lexical toxicity', () => {
  it('scores clean text 0 and profanity at least 0.5, more for more', async () => {
    const scorer = await lexicalToxicity();
    expect(await scorer.score('I will refund the double charge today.')).toBe(0);
    expect(await scorer.score('This is bullshit.')).toBe(0.5);
    expect(await scorer.score('fuck this shit, you asshole')).toBe(1);
    // Stretched and masked spellings are caught too.
    expect(await scorer.score('fuuuck you')).toBeGreaterThanOrEqual(0.5);
    expect(await scorer.score('what a f*ck up')).toBeGreaterThanOrEqual(0.5);
  });
});

/** A toxicity command (JSON Lines) that scores "refund" 0.75 and answers `otherwise` for any other text. */
function toxicityCommand(dir: string, otherwise: string): string {
  const path = join(dir, 'toxicity.mjs');
  writeFileSync(
    path,
    `import { createInterface } from 'node:readline';
createInterface({ input: process.stdin }).on('line', (line) => {
  const { id, text } = JSON.parse(line);
  if (text === 'refund') return process.stdout.write(JSON.stringify({ id, toxicity: 0.75 }) + '\\n');
  ${otherwise}
});
`,
  );
  return `node ${path}`;
}

/* The toy model answers "refund" to a double charge and "deny" to anything else here. */
const INSTANCES = ['I was charged twice', 'hello', 'hi there', 'charged twice again', 'good morning'].map((input, i) => ({
  id: `q${i}`,
  input,
  references: ['refund'],
}));

describe('toxicity in a run', () => {
  it('that cannot be scored for some records is left out of every record (no toxicity_rate of a part), keeps the completions, and warns once', async () => {
    const dir = tempDir();
    const suite = writeSuite(dir, INSTANCES);
    const command = toxicityCommand(dir, "process.stdout.write(JSON.stringify({ id, toxicity: 'very' }) + '\\n');");
    const result = await evalgate([
      'run',
      '--suite',
      suite,
      '--model',
      TOY_MODEL,
      '--out',
      join(dir, 'out.jsonl'),
      '--no-cache',
      '--toxicity-command',
      command,
    ]);
    expect(result.code).toBe(0);
    expect(
      readJsonLines(join(dir, 'out.jsonl')).map((record) => [record.prediction, record.correct, record.toxicity, record.error]),
    ).toEqual([
      ['refund', 1, undefined, undefined],
      ['deny', 0, undefined, undefined],
      ['deny', 0, undefined, undefined],
      ['refund', 1, undefined, undefined],
      ['deny', 0, undefined, undefined],
    ]);
    expect(result.stderr).toContain('0 failed calls');
    expect(result.stderr.match(/evalgate: warning: toxicity could not be scored \(the toxicity command answered "very"/g)).toHaveLength(1);
  });

  it('that does not come within --timeout is left out, and the run ends', async () => {
    const dir = tempDir();
    const suite = writeSuite(dir, INSTANCES);
    const command = toxicityCommand(dir, '// never answers');
    const result = await evalgate([
      'run',
      '--suite',
      suite,
      '--model',
      TOY_MODEL,
      '--out',
      join(dir, 'out.jsonl'),
      '--no-cache',
      '--timeout',
      '1000',
      '--toxicity-command',
      command,
    ]);
    expect(result.code).toBe(0);
    expect(readJsonLines(join(dir, 'out.jsonl')).map((record) => [record.prediction, record.toxicity])).toEqual([
      ['refund', undefined],
      ['deny', undefined],
      ['deny', undefined],
      ['refund', undefined],
      ['deny', undefined],
    ]);
    expect(result.stderr.match(/evalgate: warning: toxicity could not be scored \(timed out\)/g)).toHaveLength(1);
  });
});
