import { instanceChanges, type ChangeOptions, type ExampleSide, type InstanceFlip } from '../metrics/changes.js';
import type { RecordTable } from '../metrics/table.js';
import type { EvalRecord } from '../records/types.js';
import { CHANGES_LIMIT, MAX_REFERENCES, TEXT_LENGTH, type InstanceChangesReport, type ShownFlip } from '../report/changes.js';
import { recordsAtLines } from '../runs/lines.js';
import type { RunInput } from '../runs/load.js';
import { InputError, UsageError } from '../errors.js';

/*
 * What changed instance by instance between a candidate and a baseline that are both records files:
 * the counts and the flips from the column stores (metrics/changes.ts), then the texts of just the
 * flips shown, read again from the two files by their lines (runs/lines.ts).
 */

type RecordsRun = Extract<RunInput, { kind: 'records' }>;

/** A text cut to TEXT_LENGTH characters (an ellipsis says so), without splitting a surrogate pair. */
function clip(text: string): string {
  if (text.length <= TEXT_LENGTH) return text;
  let end = TEXT_LENGTH - 1;
  if (/[\ud800-\udbff]/.test(text[end - 1])) end--;
  return `${text.slice(0, end)}…`;
}

function inputText(input: unknown): string | null {
  if (input === undefined || input === null) return null;
  return clip(typeof input === 'string' ? input : JSON.stringify(input));
}

function referenceTexts(references: EvalRecord['references']): string[] {
  if (references === undefined || references === null) return [];
  return (typeof references === 'string' ? [references] : references).slice(0, MAX_REFERENCES).map(clip);
}

function lineOf(table: RecordTable, side: ExampleSide): number {
  return table.examples.lineOf[side.row];
}

/** The record of `side`'s row, checked to be the example the table says it is (the file may have changed since). */
function recordOf(run: RecordsRun, side: ExampleSide, records: Map<number, EvalRecord>, scenario: string, flip: InstanceFlip): EvalRecord {
  const line = lineOf(run.table, side);
  const record = records.get(line)!;
  if (record.scenario !== scenario || record.id !== flip.id || (record.perturbation?.name ?? null) !== flip.perturbation) {
    throw new InputError(run.file, line, 'changed while evalgate read it (another example is on this line now): run evalgate again');
  }
  return record;
}

/** The changes between two records files, with the texts of the flips shown. */
export async function describeChanges(
  candidate: RecordsRun,
  baseline: RecordsRun,
  options: ChangeOptions = { limit: CHANGES_LIMIT },
): Promise<InstanceChangesReport> {
  const changes = instanceChanges(candidate.table, baseline.table, options);
  const shown = changes.scenarios.flatMap((scope) => [...scope.broken, ...scope.fixed]);
  const candidateLines = shown.map((flip) => lineOf(candidate.table, flip.candidate));
  const baselineLines = shown.map((flip) => lineOf(baseline.table, flip.baseline));
  const [ours, theirs] = await Promise.all([recordsAtLines(candidate.file, candidateLines), recordsAtLines(baseline.file, baselineLines)]);
  const describe = (scenario: string, flip: InstanceFlip): ShownFlip => {
    const now = recordOf(candidate, flip.candidate, ours, scenario, flip);
    const before = recordOf(baseline, flip.baseline, theirs, scenario, flip);
    const side = (scores: ExampleSide, record: EvalRecord, table: RecordTable) => ({
      correct: scores.correct,
      samples: scores.samples,
      line: lineOf(table, scores),
      prediction: record.prediction === undefined || record.prediction === null ? null : clip(record.prediction),
    });
    return {
      id: flip.id,
      perturbation: flip.perturbation,
      input: inputText(now.input),
      references: referenceTexts(now.references),
      candidate: side(flip.candidate, now, candidate.table),
      baseline: side(flip.baseline, before, baseline.table),
    };
  };
  return {
    rightAt: changes.rightAt,
    limit: changes.limit,
    textLength: TEXT_LENGTH,
    scenarios: changes.scenarios.map((scope) => ({
      ...scope,
      broken: scope.broken.map((flip) => describe(scope.scenario, flip)),
      fixed: scope.fixed.map((flip) => describe(scope.scenario, flip)),
    })),
  };
}

/** The changes when both runs are records files; null otherwise (summary metrics have no examples). */
export function changesBetween(candidate: RunInput, baseline: RunInput | undefined): Promise<InstanceChangesReport | null> {
  return candidate.kind === 'records' && baseline?.kind === 'records' ? describeChanges(candidate, baseline) : Promise.resolve(null);
}

/** `evalgate diff`: the changes between two records files, every scenario or one. */
export async function diffRuns(candidate: RunInput, baseline: RunInput, options: ChangeOptions): Promise<InstanceChangesReport> {
  for (const run of [candidate, baseline]) {
    if (run.kind !== 'records') {
      throw new InputError(run.file, undefined, 'is a metrics file (summary numbers): diff compares two records files example by example');
    }
  }
  const [ours, theirs] = [candidate, baseline] as RecordsRun[];
  if (
    options.scenario !== undefined &&
    !(ours.table.scenarios.includes(options.scenario) && theirs.table.scenarios.includes(options.scenario))
  ) {
    const shared = ours.table.scenarios.filter((name) => theirs.table.scenarios.includes(name));
    throw new UsageError(
      `--scenario "${options.scenario}" is not a scenario of both runs (${shared.length > 0 ? `they share ${shared.map((name) => `"${name}"`).join(', ')}` : 'they share none'})`,
    );
  }
  return describeChanges(ours, theirs, options);
}
