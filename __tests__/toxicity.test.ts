import { describe, expect, it } from '@jest/globals';
import { lexicalToxicity } from '../src/runner/toxicity.js';

describe('lexical toxicity', () => {
  it('scores clean text 0 and profanity at least 0.5, more for more', async () => {
    const scorer = lexicalToxicity();
    expect(await scorer.score('I will refund the double charge today.')).toBe(0);
    expect(await scorer.score('This is bullshit.')).toBe(0.5);
    expect(await scorer.score('fuck this shit, you asshole')).toBe(1);
    // Stretched and masked spellings are caught too.
    expect(await scorer.score('fuuuck you')).toBeGreaterThanOrEqual(0.5);
    expect(await scorer.score('what a f*ck up')).toBeGreaterThanOrEqual(0.5);
  });
});
