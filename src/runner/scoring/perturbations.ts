import type { Perturbation } from '../../records/types.js';
import { deriveSeed, Random } from '../../stats/random.js';

/*
 * HELM-style perturbations of an instance's input. Each is deterministic per instance id (its random
 * choices are seeded by the perturbation's name and the id), so reruns and shards agree. Fairness
 * perturbations also apply to the references, as HELM does, so that the expected answer follows, and to
 * the choices, so that it is still one of them.
 */

export type PerturbationName = 'typos' | 'lowercase' | 'contractions' | 'whitespace' | 'dialect' | 'gender' | 'names';

export const PERTURBATIONS: Record<PerturbationName, Perturbation['kind']> = {
  typos: 'robustness',
  lowercase: 'robustness',
  contractions: 'robustness',
  whitespace: 'robustness',
  dialect: 'fairness',
  gender: 'fairness',
  names: 'fairness',
};

/** QWERTY neighbours of each letter (HELM's typo perturbation replaces a letter with one of them). */
const QWERTY_NEIGHBOURS: Record<string, string> = {
  q: 'wa',
  w: 'qeas',
  e: 'wrsd',
  r: 'etdf',
  t: 'ryfg',
  y: 'tugh',
  u: 'yihj',
  i: 'uojk',
  o: 'ipkl',
  p: 'ol',
  a: 'qwsz',
  s: 'qweadzx',
  d: 'wersfxc',
  f: 'ertdgcv',
  g: 'rtyfhvb',
  h: 'tyugjbn',
  j: 'yuihknm',
  k: 'uiojlm',
  l: 'iopk',
  z: 'asx',
  x: 'zsdc',
  c: 'xdfv',
  v: 'cfgb',
  b: 'vghn',
  n: 'bhjm',
  m: 'njk',
};

const CONTRACTIONS: Array<[string, string]> = [
  ["don't", 'do not'],
  ["doesn't", 'does not'],
  ["didn't", 'did not'],
  ["can't", 'cannot'],
  ["won't", 'will not'],
  ["isn't", 'is not'],
  ["aren't", 'are not'],
  ["wasn't", 'was not'],
  ["weren't", 'were not'],
  ["haven't", 'have not'],
  ["hasn't", 'has not'],
  ["I'm", 'I am'],
  ["you're", 'you are'],
  ["we're", 'we are'],
  ["they're", 'they are'],
  ["it's", 'it is'],
  ["I've", 'I have'],
  ["I'll", 'I will'],
  ["you'll", 'you will'],
  ["that's", 'that is'],
];

/** A small Standard American English -> African American English lexicon (after HELM's dialect mapping). */
const DIALECT: Array<[string, string]> = [
  ['about', 'bout'],
  ['because', 'cuz'],
  ['going to', 'gonna'],
  ['want to', 'wanna'],
  ['got to', 'gotta'],
  ['them', 'dem'],
  ['this', 'dis'],
  ['that', 'dat'],
  ['these', 'dese'],
  ['those', 'dose'],
  ['with', 'wit'],
  ['nothing', 'nothin'],
  ['something', 'somethin'],
  ['anything', 'anythin'],
  ['trying', 'tryna'],
  ['your', 'yo'],
  ['you all', "y'all"],
  ['brother', 'brotha'],
  ['sister', 'sista'],
  ['probably', 'prolly'],
];

const GENDER: Array<[string, string]> = [
  ['he', 'she'],
  ['him', 'her'],
  ['his', 'her'],
  ['himself', 'herself'],
  ['man', 'woman'],
  ['men', 'women'],
  ['boy', 'girl'],
  ['boys', 'girls'],
  ['father', 'mother'],
  ['husband', 'wife'],
  ['son', 'daughter'],
  ['brother', 'sister'],
  ['mr', 'ms'],
  ['sir', 'madam'],
  ['gentleman', 'lady'],
];

/** First names swapped across groups (after HELM's person-name perturbation). */
const NAMES: Array<[string, string]> = [
  ['John', 'Jamal'],
  ['Emily', 'Lakisha'],
  ['Michael', 'Darnell'],
  ['Sarah', 'Keisha'],
  ['David', 'Tyrone'],
  ['Anne', 'Aisha'],
  ['James', 'DeShawn'],
  ['Laura', 'Latoya'],
  ['Robert', 'Jermaine'],
  ['Mary', 'Tanisha'],
];

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Replaces whole words by a mapping, keeping the case of the first letter. */
/**
 * Words after which "her" is an object ("gave her the book", "told her about it", "saw her yesterday"),
 * not a possessive: a determiner, preposition, conjunction, pronoun or adverb, or nothing.
 */
const AFTER_OBJECT_HER = new Set(
  (
    'a an the this that these those some any no every each my your our their his its to for with about from in on at by of into onto ' +
    'up down out off over back away again now then there here today tomorrow yesterday tonight and or but so because if when as ' +
    'than too very more much once twice all both what which who how why where i you he she we they it me him us them not'
  ).split(' '),
);

/** "her" as the gender swap reads it: "his" before a noun ("her aunt"), else "him" ("told her"). */
function swappedHer(text: string, after: number): string {
  const next = /^\s+([A-Za-z']+)/.exec(text.slice(after))?.[1]?.toLowerCase();
  return next === undefined || AFTER_OBJECT_HER.has(next) ? 'him' : 'his';
}

function replaceWords(text: string, pairs: Array<[string, string]>, bothWays: boolean): string {
  const map = new Map<string, string>();
  for (const [from, to] of pairs) {
    if (!map.has(from.toLowerCase())) map.set(from.toLowerCase(), to);
    if (bothWays && !map.has(to.toLowerCase())) map.set(to.toLowerCase(), from);
  }
  const keys = [...map.keys()].sort((a, b) => b.length - a.length).map(escapeRegExp);
  const pattern = new RegExp(`\\b(${keys.join('|')})\\b`, 'gi');
  return text.replace(pattern, (word: string, _group: string, offset: number) => {
    // "her" is both "him" and "his": which one, the next word says.
    const replacement =
      bothWays && word.toLowerCase() === 'her' && map.get('her') === 'him'
        ? swappedHer(text, offset + word.length)
        : map.get(word.toLowerCase())!;
    return word[0] === word[0].toUpperCase() ? replacement[0].toUpperCase() + replacement.slice(1) : replacement;
  });
}

function typos(text: string, random: Random, probability: number): string {
  return text.replace(/[a-z]/gi, (letter) => {
    const neighbours = QWERTY_NEIGHBOURS[letter.toLowerCase()];
    if (!neighbours || random.nextFloat() >= probability) return letter;
    const typo = neighbours[random.nextBelow(neighbours.length)];
    return letter === letter.toUpperCase() ? typo.toUpperCase() : typo;
  });
}

/** Expands the contractions a text has; contracts its expansions if it has none. */
function contractions(text: string): string {
  const expanded = replaceWords(text, CONTRACTIONS, false);
  return expanded !== text
    ? expanded
    : replaceWords(
        text,
        CONTRACTIONS.map(([short, long]) => [long, short]),
        false,
      );
}

function whitespace(text: string, random: Random): string {
  return text.replace(/ /g, () => ' '.repeat(1 + random.nextBelow(3)));
}

export interface Perturbed {
  perturbation: Perturbation;
  input: string;
  references: string[];
  choices: string[];
}

/**
 * The perturbed variant of an instance, or undefined when the perturbation changes nothing (an
 * unchanged variant is not sent).
 */
export function perturb(
  name: PerturbationName,
  instanceId: string,
  input: string,
  references: string[],
  choices: string[] = [],
  typoProbability = 0.05,
): Perturbed | undefined {
  const random = new Random(deriveSeed(0, `${name}\u0000${instanceId}`));
  const kind = PERTURBATIONS[name];
  const apply = (text: string): string => {
    switch (name) {
      case 'typos':
        return typos(text, random, typoProbability);
      case 'lowercase':
        return text.toLowerCase();
      case 'contractions':
        return contractions(text);
      case 'whitespace':
        return whitespace(text, random);
      case 'dialect':
        return replaceWords(text, DIALECT, false);
      case 'gender':
        return replaceWords(text, GENDER, true);
      case 'names':
        return replaceWords(text, NAMES, true);
    }
  };
  const perturbedInput = apply(input);
  if (perturbedInput === input) return undefined;
  const follow = (texts: string[]) => (kind === 'fairness' ? texts.map(apply) : texts);
  return { perturbation: { name, kind }, input: perturbedInput, references: follow(references), choices: follow(choices) };
}
