import { markdownTable } from 'markdown-table';
import { z } from 'zod';
import type { VariantChanges } from '../metrics/changes.js';
import { finiteNumber } from '../metrics/report.js';
import { escapeHtml, escapeMarkdown, escapeTerminal } from './escape.js';
import { count, formatNumber } from './format.js';

/*
 * What changed instance by instance (metrics/changes.ts, with texts from pipeline/instance-changes.ts):
 * its place in the JSON report, read back with a schema, and how the comment, the terminal and the
 * decision matrix show it. Inputs, predictions and references are a model's and a suite's words:
 * everything from data goes through escape.ts.
 */

/** Flips listed per scenario and direction in a gate's report. */
export const CHANGES_LIMIT = 5;
/** Inputs, predictions and references are cut to this many characters (an ellipsis says so). */
export const TEXT_LENGTH = 300;
/** References shown per example. */
export const MAX_REFERENCES = 5;
/** The most flips per scenario and direction a report read back may list. */
const MAX_LIMIT = 1000;

const unit = finiteNumber.refine((x) => x >= 0 && x <= 1, 'expected a number in [0, 1]');
const counted = z.int().nonnegative();
/** One run's side of a flip: its score, and the record shown (with repeated samples, one of them). */
const side = z.object({
  /** The mean `correct` of the example's answered samples. */
  correct: unit,
  samples: z.int().positive(),
  /** The line of the file of the record shown. */
  line: z.int().positive(),
  prediction: z.string().nullable(),
});
const flip = z.object({
  id: z.string(),
  perturbation: z.string().nullable(),
  /** The candidate's record's input (JSON when not a string) and references. */
  input: z.string().nullable(),
  references: z.array(z.string()).max(MAX_REFERENCES),
  candidate: side,
  baseline: side,
});
const scenarioChanges = z.object({
  scenario: z.string(),
  variants: z.array(
    z
      .object({ perturbation: z.string().nullable(), compared: counted, rightToWrong: counted, wrongToRight: counted })
      .refine((v) => v.rightToWrong + v.wrongToRight <= v.compared, 'more flips than examples compared'),
  ),
  broken: z.array(flip),
  fixed: z.array(flip),
});

/**
 * The `changes` of the JSON report, and the output of `evalgate diff --json`; checked so when read back
 * (an untrusted report in the fork-safe pair): the flips must be flips, the counts add up.
 */
export const instanceChangesSchema = z
  .object({
    /** An example is right when its mean `correct` is at least this. */
    rightAt: unit,
    limit: z.int().min(0).max(MAX_LIMIT),
    textLength: z.int().positive(),
    scenarios: z.array(scenarioChanges),
  })
  .refine(
    (changes) =>
      changes.scenarios.every(
        (scope) =>
          scope.broken.length <= Math.min(changes.limit, total(scope.variants, 'rightToWrong')) &&
          scope.fixed.length <= Math.min(changes.limit, total(scope.variants, 'wrongToRight')) &&
          scope.broken.every((f) => f.candidate.correct < changes.rightAt && f.baseline.correct >= changes.rightAt) &&
          scope.fixed.every((f) => f.candidate.correct >= changes.rightAt && f.baseline.correct < changes.rightAt),
      ),
    'the listed flips do not agree with the counts and rightAt',
  );

export type InstanceChangesReport = z.output<typeof instanceChangesSchema>;
type ScenarioChangesReport = z.output<typeof scenarioChanges>;
export type ShownFlip = z.output<typeof flip>;
type ShownSide = z.output<typeof side>;

function total(variants: VariantChanges[], field: 'compared' | 'rightToWrong' | 'wrongToRight'): number {
  return variants.reduce((sum, variant) => sum + variant[field], 0);
}

/** "41 right → wrong, 57 wrong → right of 1791 examples both runs answered" */
export function changesSummary(changes: InstanceChangesReport): string {
  const variants = changes.scenarios.flatMap((scope) => scope.variants);
  return `${total(variants, 'rightToWrong')} right → wrong, ${total(variants, 'wrongToRight')} wrong → right of ${count(total(variants, 'compared'), 'example')} both runs answered`;
}

const RULE = (changes: InstanceChangesReport) =>
  `An example is right when its \`correct\` (with repeated samples, their mean) is at least ${changes.rightAt}.`;

/** "baseline 1 → candidate 0", with the samples when an example has several. */
function scores(shown: ShownFlip): string {
  const score = ({ correct, samples }: ShownSide) => `${formatNumber(correct)}${samples > 1 ? ` (mean of ${samples} samples)` : ''}`;
  return `baseline ${score(shown.baseline)} → candidate ${score(shown.candidate)}`;
}

type Direction = 'broken' | 'fixed';
const DIRECTION: Record<Direction, { label: string; field: 'rightToWrong' | 'wrongToRight' }> = {
  broken: { label: 'right → wrong', field: 'rightToWrong' },
  fixed: { label: 'wrong → right', field: 'wrongToRight' },
};

/** "billing · right → wrong: 12, the 5 that changed most", or undefined when nothing flipped that way. */
function listTitle(scope: ScenarioChangesReport, direction: Direction, shown: number, name: string): string | undefined {
  const flips = total(scope.variants, DIRECTION[direction].field);
  if (flips === 0) return undefined;
  const which = shown >= flips ? '' : shown === 0 ? ' (none listed)' : `, the ${shown} that changed most`;
  return `${name} · ${DIRECTION[direction].label}: ${flips}${which}`;
}

function variantName(perturbation: string | null, escape: (text: string) => string): string {
  return perturbation === null ? 'originals' : escape(perturbation);
}

function flipMarkdown(shown: ShownFlip): string {
  const perturbation = shown.perturbation === null ? '' : ` (${escapeMarkdown(shown.perturbation)})`;
  const text = (value: string | null) => (value === null ? '_none_' : escapeMarkdown(value));
  return [
    `- ${escapeMarkdown(shown.id)}${perturbation}: ${scores(shown)}`,
    `  - input: ${text(shown.input)}`,
    `  - baseline: ${text(shown.baseline.prediction)}`,
    `  - candidate: ${text(shown.candidate.prediction)}`,
    `  - references: ${shown.references.length > 0 ? shown.references.map(escapeMarkdown).join(' · ') : '_none_'}`,
  ].join('\n');
}

/** The counts per scenario and examples (originals, each perturbation), a table's rows under COUNT_HEADER. */
function countRows(changes: InstanceChangesReport, escape: (text: string) => string): string[][] {
  return changes.scenarios.flatMap((scope) =>
    scope.variants.map((v) => [
      escape(scope.scenario),
      variantName(v.perturbation, escape),
      String(v.compared),
      String(v.rightToWrong),
      String(v.wrongToRight),
    ]),
  );
}
const COUNT_HEADER = ['scenario', 'examples', 'compared', 'right → wrong', 'wrong → right'];
const COUNT_ALIGN = ['l', 'l', 'r', 'r', 'r'];

/** The collapsed block with `perList` flips per scenario and direction. */
function renderMarkdown(changes: InstanceChangesReport, perList: number): string {
  const parts = [
    `<details><summary>What changed, instance by instance: ${changesSummary(changes)}</summary>`,
    '',
    `${RULE(changes)} Texts are cut at ${changes.textLength} characters.`,
    '',
    markdownTable([COUNT_HEADER, ...countRows(changes, escapeMarkdown)], { align: COUNT_ALIGN }),
    '',
  ];
  const cut = changes.scenarios.some((scope) => scope.broken.length > perList || scope.fixed.length > perList);
  for (const scope of changes.scenarios) {
    for (const direction of ['broken', 'fixed'] as const) {
      const listed = scope[direction].slice(0, perList);
      const title = listTitle(scope, direction, listed.length, `**${escapeMarkdown(scope.scenario)}**`);
      if (title) parts.push(title, '', ...listed.map(flipMarkdown), '');
    }
  }
  if (cut) parts.push('_Fewer examples listed than the JSON report has, to stay within the comment size limit._', '');
  parts.push('</details>', '');
  return parts.join('\n');
}

/**
 * The collapsed block of the comment, at most `room` characters: with fewer examples listed, then
 * the counts alone, then a note, as the room shrinks ('' when not even the note fits).
 */
export function instanceChangesMarkdown(changes: InstanceChangesReport, room: number): string {
  // Not Math.max(...): 100,000 scenarios would overflow the stack.
  const longest = changes.scenarios.reduce((most, scope) => Math.max(most, scope.broken.length, scope.fixed.length), 0);
  if (renderMarkdown(changes, longest).length <= room) return renderMarkdown(changes, longest);
  // The most examples per list that fit: a binary search, since a longer list is never shorter text.
  let fits = -1;
  for (let low = 0, high = longest - 1; low <= high;) {
    const middle = (low + high) >> 1;
    if (renderMarkdown(changes, middle).length <= room) low = (fits = middle) + 1;
    else high = middle - 1;
  }
  if (fits >= 0) return renderMarkdown(changes, fits);
  const note = `_What changed instance by instance (${changesSummary(changes)}) is left out to stay within the comment size limit; the JSON report has it._\n`;
  return note.length <= room ? note : '';
}

function flipText(shown: ShownFlip): string[] {
  const perturbation = shown.perturbation === null ? '' : ` (${escapeTerminal(shown.perturbation)})`;
  const text = (value: string | null) => (value === null ? '-' : escapeTerminal(value));
  return [
    `  ${escapeTerminal(shown.id)}${perturbation}: ${scores(shown)} (baseline line ${shown.baseline.line}, candidate line ${shown.candidate.line})`,
    `    input:      ${text(shown.input)}`,
    `    baseline:   ${text(shown.baseline.prediction)}`,
    `    candidate:  ${text(shown.candidate.prediction)}`,
    `    references: ${shown.references.length > 0 ? shown.references.map(escapeTerminal).join(' · ') : '-'}`,
  ];
}

/** For a terminal: the counts per scenario and examples, then the flips listed, with their texts unless `texts` is false. */
export function instanceChangesText(changes: InstanceChangesReport, { texts = true } = {}): string {
  const lines = [
    `What changed, instance by instance: ${changesSummary(changes)}`,
    RULE(changes).replace(/`/g, ''),
    '',
    markdownTable([COUNT_HEADER, ...countRows(changes, escapeTerminal)], { align: COUNT_ALIGN }),
    '',
  ];
  for (const scope of changes.scenarios) {
    for (const direction of ['broken', 'fixed'] as const) {
      const title = listTitle(scope, direction, scope[direction].length, escapeTerminal(scope.scenario));
      const flips = scope[direction].flatMap((shown) => (texts ? flipText(shown) : flipText(shown).slice(0, 1)));
      if (title) lines.push(title, ...flips, '');
    }
  }
  return lines.join('\n');
}

/** A row of the changed examples' table: scenario, id, examples, baseline → candidate, and the texts collapsed. */
function flipRow(scenario: string, shown: ShownFlip): string {
  const text = (value: string | null) => (value === null ? '<em>none</em>' : escapeHtml(value));
  const references = shown.references.length > 0 ? shown.references.map(escapeHtml).join(' · ') : '<em>none</em>';
  const entry = (name: string, value: string) => `<dt>${name}</dt><dd>${value}</dd>`;
  const texts = `<details><summary>texts</summary><dl>${[
    entry('input', text(shown.input)),
    entry('baseline', text(shown.baseline.prediction)),
    entry('candidate', text(shown.candidate.prediction)),
    entry('references', references),
  ].join('')}</dl></details>`;
  const score = ({ correct, samples }: ShownSide) => `${formatNumber(correct)}${samples > 1 ? ` (${samples} samples)` : ''}`;
  const cells = [
    escapeHtml(scenario),
    escapeHtml(shown.id),
    variantName(shown.perturbation, escapeHtml),
    `${score(shown.baseline)} → ${score(shown.candidate)}`,
    texts,
  ];
  return `<tr>${cells.map((cell) => `<td>${cell}</td>`).join('')}</tr>`;
}

/**
 * For the HTML report: the counts per scenario and examples, then every flip the report lists in one
 * compact table, its texts collapsed (`scenarios` at most).
 */
export function instanceChangesHtml(changes: InstanceChangesReport, scenarios: number): string {
  const cells = (row: string[], tag: 'td' | 'th') => `<tr>${row.map((value) => `<${tag}>${value}</${tag}>`).join('')}</tr>`;
  const shown = changes.scenarios.slice(0, scenarios);
  const listed = { ...changes, scenarios: shown };
  const parts = [
    '<h2>What changed, instance by instance</h2>',
    `<p>${escapeHtml(changesSummary(changes))}. ${escapeHtml(RULE(changes).replace(/`/g, ''))}</p>`,
    shown.length < changes.scenarios.length
      ? `<p class="note">The first ${scenarios} of ${changes.scenarios.length} scenarios are listed; the JSON report has them all.</p>`
      : '',
    `<table><thead>${cells(COUNT_HEADER.map(escapeHtml), 'th')}</thead><tbody>${countRows(listed, escapeHtml)
      .map((row) => cells(row, 'td'))
      .join('')}</tbody></table>`,
  ];
  for (const direction of ['broken', 'fixed'] as const) {
    const rows = shown.flatMap((scope) => scope[direction].map((flip) => flipRow(scope.scenario, flip)));
    if (rows.length === 0) continue;
    const titles = shown.flatMap((scope) => listTitle(scope, direction, scope[direction].length, escapeHtml(scope.scenario)) ?? []);
    parts.push(
      `<h3>${DIRECTION[direction].label}</h3>`,
      `<p class="note">${titles.join('; ')}</p>`,
      `<table class="flips"><thead>${cells(['scenario', 'id', 'examples', 'baseline → candidate', 'texts'], 'th')}</thead><tbody>${rows.join('')}</tbody></table>`,
    );
  }
  return parts.filter((part) => part !== '').join('\n');
}
