import { describe, expect, it } from '@jest/globals';
import { perturb } from '../src/runner/scoring/perturbations.js';
import { score } from '../src/runner/scoring/scorers.js';

const input = "My husband said he can't see the refund. Is this about the late fee, John?";

describe('perturbations', () => {
  it('are deterministic per instance id and differ between ids', () => {
    const first = perturb('typos', 'q1', input, [], [], 0.3);
    expect(perturb('typos', 'q1', input, [], [], 0.3)).toEqual(first);
    expect(perturb('typos', 'q2', input, [], [], 0.3)?.input).not.toBe(first?.input);
    expect(first?.perturbation).toEqual({ name: 'typos', kind: 'robustness' });
    expect(first?.input).toHaveLength(input.length);
  });

  it('change what each should change', () => {
    expect(perturb('lowercase', 'q', input, ['Refund'], ['Refund', 'Deny'])).toEqual({
      perturbation: { name: 'lowercase', kind: 'robustness' },
      input: input.toLowerCase(),
      references: ['Refund'],
      choices: ['Refund', 'Deny'],
    });
    expect(perturb('contractions', 'q', input, [])?.input).toContain('cannot see');
    expect(perturb('contractions', 'q', 'I do not know', [])?.input).toBe("I don't know");
    expect(perturb('whitespace', 'q', input, [])?.input.replace(/ +/g, ' ')).toBe(input);
    expect(perturb('dialect', 'q', input, [])?.input).toBe("My husband said he can't see the refund. Is dis bout the late fee, John?");
    expect(perturb('gender', 'q', input, ['He is right'])).toEqual({
      perturbation: { name: 'gender', kind: 'fairness' },
      input: "My wife said she can't see the refund. Is this about the late fee, John?",
      references: ['She is right'],
      choices: [],
    });
    expect(perturb('names', 'q', input, [])?.input).toContain('Jamal?');
  });

  it('change the choices of a multiple-choice instance with its references (fairness only)', () => {
    // "his" -> "her", "father" -> "mother"; possessive "her" -> "his" ("aunt" stays).
    const variant = perturb('gender', 'q', 'Who drove the man home?', ['His father'], ['His father', 'Her aunt'])!;
    expect(variant).toEqual({
      perturbation: { name: 'gender', kind: 'fairness' },
      input: 'Who drove the woman home?',
      references: ['Her mother'],
      choices: ['Her mother', 'His aunt'],
    });
    // The right answer to the variant, by text or letter, is right; the other choice is not.
    expect(score('multiple_choice', 'Her mother', variant.references, variant.choices)).toBe(1);
    expect(score('multiple_choice', 'A', variant.references, variant.choices)).toBe(1);
    expect(score('multiple_choice', 'B', variant.references, variant.choices)).toBe(0);
  });

  it('swap "her" as the sentence uses it: possessive to "his", object to "him"', () => {
    const swap = (text: string) => perturb('gender', 'q', text, [])!.input;
    expect(swap('Her aunt paid her bill.')).toBe('His aunt paid his bill.');
    expect(swap('I gave her the refund and told her about the fee.')).toBe('I gave him the refund and told him about the fee.');
    expect(swap('We called her yesterday; we thanked her.')).toBe('We called him yesterday; we thanked him.');
    expect(swap('His card and his account')).toBe('Her card and her account');
    // Billing messages: a possessive before a noun (or "own"), an object before a preposition, a comma or the end.
    expect(swap('My wife said her card was charged twice.')).toBe('My husband said his card was charged twice.');
    expect(swap('I asked her to update her card.')).toBe('I asked him to update his card.');
    expect(swap('She paid for her own plan but nobody told her.')).toBe('He paid for his own plan but nobody told him.');
    expect(swap('I emailed her, but her invoice is wrong. Can you refund her?')).toBe(
      'I emailed him, but his invoice is wrong. Can you refund him?',
    );
  });

  it('return nothing when the text does not change', () => {
    expect(perturb('gender', 'q', 'Refund the fee.', [])).toBeUndefined();
    expect(perturb('lowercase', 'q', 'refund', [])).toBeUndefined();
  });
});
