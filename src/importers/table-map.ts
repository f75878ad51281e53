import { UsageError } from '../errors.js';
import type { EvalRecord } from '../records/types.js';
import { recordProblem } from '../records/validate.js';

/*
 * A team's own per-example table (CSV columns, or JSON Lines fields) mapped onto the record format:
 * `--map correct=score,id=question_id,groups.dialect=dialect`. A field the map does not name is read
 * from the column of its own name, when there is one. Cells are read as their field needs (numbers
 * from text, True/False as 1/0 for `correct`, an empty cell as absent), then the record is validated
 * as every record is; a problem names the column it came from.
 */

type CellKind = 'text' | 'number' | 'score' | 'any';

/** The record fields a column can fill, and how its cells are read. */
const FIELDS: Record<string, CellKind> = {
  scenario: 'text',
  id: 'text',
  sample: 'number',
  correct: 'score',
  confidence: 'number',
  latency_ms: 'number',
  input_tokens: 'number',
  output_tokens: 'number',
  cost_usd: 'number',
  toxicity: 'number',
  input: 'any',
  prediction: 'text',
  references: 'any',
  error: 'text',
};

const GROUP = /^groups\.(.+)$/;

export const MAPPABLE_FIELDS = `${Object.keys(FIELDS).join(', ')}, groups.<attribute>`;

const isField = (field: string) => Object.hasOwn(FIELDS, field) || GROUP.test(field);

/** The map of `--map`: field -> column, and the factor a number field's cells are multiplied by (`latency_ms=latency_s*1000`). */
export interface ColumnMap {
  map: Record<string, string>;
  factors: Record<string, number>;
}

/** "latency_s*1000" -> the column and its factor: a trailing "*NUMBER" (a positive decimal) is a unit conversion. */
const FACTOR = /^(.*?)\s*\*\s*(\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)$/;

/**
 * `--map` values as field -> column. Pairs are separated by commas; a comma starts a new pair only
 * where a field name and "=" follow, so a column name may hold commas. Each pair splits at its first "=".
 * A number field's column may end in "*FACTOR": its cells are multiplied by it (seconds to ms: *1000).
 */
export function parseColumnMap(values: string[]): ColumnMap {
  const map: Record<string, string> = {};
  const factors: Record<string, number> = {};
  const fieldAhead = new RegExp(`,(?=\\s*(?:groups\\.[^=,]+|${Object.keys(FIELDS).join('|')})\\s*=)`);
  for (const pair of values.flatMap((value) => value.split(fieldAhead))) {
    const equals = pair.indexOf('=');
    const field = pair.slice(0, Math.max(equals, 0)).trim();
    let column = pair.slice(equals + 1).trim();
    if (equals < 0 || !isField(field) || column === '') {
      throw new UsageError(`--map ${pair}: expected FIELD=COLUMN with FIELD one of ${MAPPABLE_FIELDS}`);
    }
    if (map[field] !== undefined) throw new UsageError(`--map ${field} is given twice`);
    const scaled = FACTOR.exec(column);
    if (scaled) {
      const factor = Number(scaled[2]);
      if (FIELDS[field] !== 'number' || !(factor > 0) || scaled[1] === '') {
        throw new UsageError(
          `--map ${pair}: a *FACTOR multiplies a number field's cells by a positive number (e.g. latency_ms=latency_s*1000)`,
        );
      }
      [column, factors[field]] = [scaled[1], factor];
    }
    map[field] = column;
  }
  return { map, factors };
}

/** Which column fills each field: the map's, else a column of the field's own name. */
export function columnsFor(map: Record<string, string>, columns: Iterable<string>): Map<string, string> {
  const chosen = new Map(Object.entries(map));
  for (const column of columns) if (isField(column) && !chosen.has(column)) chosen.set(column, column);
  return chosen;
}

const NUMBER = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

/** A cell as its field needs it; a cell that cannot be read is kept as it is, for the validation to name. */
function cellValue(kind: CellKind, cell: unknown): unknown {
  if (cell === null || cell === undefined || cell === '') return undefined;
  if (typeof cell !== 'string') {
    if (kind === 'score' && typeof cell === 'boolean') return cell ? 1 : 0;
    return kind === 'text' && (typeof cell === 'number' || typeof cell === 'boolean') ? String(cell) : cell;
  }
  const text = cell.trim();
  if ((kind === 'number' || kind === 'score') && NUMBER.test(text)) return Number(text);
  if (kind === 'score' && /^(true|false)$/i.test(text)) return text.toLowerCase() === 'true' ? 1 : 0;
  return cell;
}

/** A number times its column's factor, to 12 significant digits (0.077 * 1000 is 77, not 77.00000000000001). */
function scale(value: unknown, factor: number | undefined): unknown {
  return factor === undefined || typeof value !== 'number' ? value : Number((value * factor).toPrecision(12));
}

/**
 * One row as a record, or the problem with it naming the column (`what` says "column" or "field").
 * `cell` reads the row's value of a column.
 */
export function rowRecord(
  columns: Map<string, string>,
  cell: (column: string) => unknown,
  scenario: string | undefined,
  what: string,
  factors: Record<string, number> = {},
): { record: EvalRecord; problem?: undefined } | { problem: string } {
  const record: Record<string, unknown> = scenario === undefined ? {} : { scenario };
  const groups: Record<string, string> = {};
  for (const [field, column] of columns) {
    const group = GROUP.exec(field)?.[1];
    const value = cellValue(group ? 'text' : FIELDS[field], cell(column));
    if (value === undefined) continue;
    if (group) groups[group] = value as string;
    else record[field] = scale(value, factors[field]);
  }
  if (Object.keys(groups).length > 0) record.groups = groups;
  const problem = recordProblem(record);
  if (problem === undefined) return { record: record as EvalRecord };
  // The validation names the field first ("correct" must be ...): say which column it came from.
  const field = /^"([^"]+)"/.exec(problem)?.[1];
  const column = field === undefined ? undefined : columns.get(field);
  if (column !== undefined) return { problem: `${problem} (${what} "${column}")` };
  if (field === 'id') return { problem: `${problem} (no ${what} gives it: --map id=${what.toUpperCase()})` };
  if (field === 'scenario') {
    return { problem: `${problem} (no ${what} gives it: --map scenario=${what.toUpperCase()}, or --scenario NAME)` };
  }
  return { problem };
}
