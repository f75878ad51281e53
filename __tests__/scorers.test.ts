import { describe, expect, it } from '@jest/globals';
import { lastNumber, normalizeText, score, tokenF1 } from '../src/runner/scoring/scorers.js';
import { runProcess } from './helpers/run.js';

describe('scorers', () => {
  it('normalize text as HELM does', () => {
    expect(normalizeText('  The Refund, please!  ')).toBe('refund please');
    expect(normalizeText('An apple a day')).toBe('apple day');
    // Articles are whole words in Unicode terms: the "a" of "año" and "Ça" stays.
    expect(normalizeText('año')).toBe('año');
    expect(normalizeText('Ça va, the café')).toBe('ça va café');
  });

  it("agree with a plain-Python transcription of HELM's normalize_text and f1_score", async () => {
    const pairs = [
      ['año', 'Ça va, the cat'],
      ['cat cat', 'cat'],
      ['The cat sat on the mat', 'a cat, a mat, a cat!'],
      ['théâtre an ánfora', 'the théâtre'],
      ['Full refund issued', 'refund issued today refund'],
      ['', ''],
      ['a', 'the'],
      ['naïve answer_1', 'naive answer1'],
    ];
    const result = await runProcess('python3', ['__tests__/reference/helm_text_reference.py', JSON.stringify(pairs)]);
    expect(result.stderr).toBe('');
    const reference = JSON.parse(result.stdout) as Array<{ gold: string; pred: string; f1: number }>;
    expect(pairs.map(([gold, pred]) => [normalizeText(gold), normalizeText(pred)])).toEqual(
      reference.map(({ gold, pred }) => [gold, pred]),
    );
    pairs.forEach(([gold, pred], index) =>
      expect([gold, pred, tokenF1(pred, gold)]).toEqual([gold, pred, expect.closeTo(reference[index].f1, 12)]),
    );
  });

  it('score exact and quasi-exact matches against any reference', () => {
    expect(score('exact_match', ' refund ', ['escalate', 'refund'])).toBe(1);
    expect(score('exact_match', 'Refund.', ['refund'])).toBe(0);
    expect(score('quasi_exact_match', 'Refund.', ['refund'])).toBe(1);
    expect(score('quasi_exact_match', 'a refund', ['the refund'])).toBe(1);
  });

  it('compute token F1 (hand-worked)', () => {
    // prediction tokens: full refund issued (3); reference: refund issued today (3); common: refund, issued.
    // precision 2/3, recall 2/3 -> F1 2/3.
    expect(tokenF1('Full refund issued', 'refund issued today')).toBeCloseTo(2 / 3, 15);
    // HELM counts each distinct token once: {cat} against {cat} is 1 (per occurrence it would be 2/3).
    expect(tokenF1('cat cat', 'cat')).toBe(1);
    // {refund, issued} against {refund, today}: precision 1/2, recall 1/2 -> 1/2 (per occurrence 0.4).
    expect(tokenF1('refund refund issued', 'refund today')).toBe(0.5);
    // Nothing left after normalizing: HELM's f_measure gives None, which it counts as 0.
    expect(tokenF1('', '')).toBe(0);
    expect(tokenF1('The.', 'a')).toBe(0);
    expect(score('f1', 'nothing alike', ['refund'])).toBe(0);
    expect(score('f1', 'refund', ['no', 'refund'])).toBe(1);
  });

  it('read multiple-choice answers by letter or text', () => {
    const choices = ['refund', 'escalate', 'deny'];
    expect(score('multiple_choice', 'B', ['escalate'], choices)).toBe(1);
    expect(score('multiple_choice', '(B) escalate it', ['escalate'], choices)).toBe(1);
    expect(score('multiple_choice', 'Deny', ['C'], choices)).toBe(1);
    expect(score('multiple_choice', 'A', ['escalate'], choices)).toBe(0);
    expect(score('multiple_choice', 'maybe', ['escalate'], choices)).toBe(0);
  });

  it("read a choice's text before a letter, and only letters within the choices", () => {
    // "A cat" is choice B's text, not the letter A; "dog" is choice A, so it is wrong.
    expect(score('multiple_choice', 'dog', ['A cat'], ['dog', 'A cat'])).toBe(0);
    expect(score('multiple_choice', 'A cat', ['A cat'], ['dog', 'A cat'])).toBe(1);
    expect(score('multiple_choice', 'B', ['A cat'], ['dog', 'A cat'])).toBe(1);
    // "I am not sure" is choice C, not the letter I (which no choice has).
    const unsure = ['yes', 'no', 'I am not sure'];
    expect(score('multiple_choice', 'I am not sure', ['I am not sure'], unsure)).toBe(1);
    expect(score('multiple_choice', 'i am not sure.', ['C'], unsure)).toBe(1);
    expect(score('multiple_choice', 'I', ['I am not sure'], unsure)).toBe(0);
    // Letter forms; D is past the choices, and a capital starting a sentence is not a letter.
    for (const answer of ['C', '(C)', 'C.', 'C) I am not sure'])
      expect(score('multiple_choice', answer, ['I am not sure'], unsure)).toBe(1);
    expect(score('multiple_choice', 'D', ['D'], unsure)).toBe(0);
    expect(score('multiple_choice', 'A yes is my answer', ['yes'], unsure)).toBe(0);
    // A reference that is a choice's exact text names that choice, even when another normalizes alike.
    expect(score('multiple_choice', 'B', ['cat'], ['The cat', 'cat'])).toBe(1);
  });

  it('match contained answers, regex extractions and numbers', () => {
    expect(score('contains', 'I will escalate this now', ['escalate'])).toBe(1);
    expect(score('contains', 'escalated', ['escalate'])).toBe(0);
    expect(score('regex', 'Action: refund (partial)', ['refund'], [], { pattern: 'Action: (\\w+)' })).toBe(1);
    expect(score('regex', 'no action', ['refund'], [], { pattern: 'Action: (\\w+)' })).toBe(0);
    expect(lastNumber('The total is 1,234.50 dollars, not 12')).toBe(12);
    expect(score('numeric', 'The refund is $1,234.50', ['1234.5'])).toBe(1);
    expect(score('numeric', 'about 100', ['101'], [], { tolerance: 1 })).toBe(1);
    expect(score('numeric', 'about 100', ['102'], [], { tolerance: 1 })).toBe(0);
  });
});
