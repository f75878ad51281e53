import { reverseKeepingTies, sortRowsByValue } from '../stats/sort.js';
import type { RecordTable, RowOrder } from './table.js';

/*
 * Records ordered by a value, for the metrics that depend on order (calibration bins, selective
 * accuracy, latency quantiles).
 */

/** Records of the scope sorted by a value, for the metrics that depend on order. */
export interface SortedRecords {
  instance: Int32Array;
  value: Float64Array;
  /** A second per-record number carried along (e.g. `correct`). */
  payload: Float64Array;
}

/** The orderings the metrics use: confidence both ways (calibration, selective accuracy), latency. */
export type Ordering = 'confidence ascending' | 'confidence descending' | 'latencyMs ascending';

/**
 * Every row's position when the table's rows that have a value are ordered by it, ties in input
 * order. Computed once per table and kept in it; scopes and bootstrap subsets then order their rows
 * by these integers, much faster than comparing values.
 */
function rowOrder(table: RecordTable, ordering: Ordering): RowOrder {
  const known = table.orderings.get(ordering);
  if (known) return known;
  const [name, direction] = ordering.split(' ') as ['confidence' | 'latencyMs', string];
  const column = table[name];
  let rowAtRank: Int32Array;
  if (direction === 'descending') {
    rowAtRank = reverseKeepingTies(rowOrder(table, `${name} ascending` as Ordering).rowAtRank, column);
  } else {
    const present: number[] = [];
    for (let row = 0; row < column.length; row++) if (!Number.isNaN(column[row])) present.push(row);
    rowAtRank = sortRowsByValue(column, Int32Array.from(present));
  }
  const rankOf = new Int32Array(column.length).fill(-1);
  for (let rank = 0; rank < rowAtRank.length; rank++) rankOf[rowAtRank[rank]] = rank;
  const order = { rankOf, rowAtRank };
  table.orderings.set(ordering, order);
  return order;
}

/** Positions are packed with their rank into one float: exact while rank * 2^22 + position < 2^53. */
const POSITION_BITS = 4194304; // 2^22

/** The positions in `rows` of those rows, ordered: for a large share of the table, by walking the table's order. */
function orderOfRows(table: RecordTable, ordering: Ordering, rows: number[]): Int32Array {
  const { rankOf, rowAtRank } = rowOrder(table, ordering);
  const order = new Int32Array(rows.length);
  if (rows.length * 16 > table.size || rows.length >= POSITION_BITS) {
    const positionOf = new Int32Array(table.size).fill(-1);
    for (let position = 0; position < rows.length; position++) positionOf[rows[position]] = position;
    let next = 0;
    for (let rank = 0; rank < rowAtRank.length; rank++) {
      const position = positionOf[rowAtRank[rank]];
      if (position >= 0) order[next++] = position;
    }
    return order;
  }
  // A small set (a bootstrap subset): sort (rank, position) pairs packed into floats, natively.
  const keys = new Float64Array(rows.length);
  for (let position = 0; position < rows.length; position++) keys[position] = rankOf[rows[position]] * POSITION_BITS + position;
  keys.sort();
  for (let index = 0; index < keys.length; index++) order[index] = keys[index] % POSITION_BITS;
  return order;
}

export function sortRecords(
  table: RecordTable,
  ordering: Ordering,
  rows: number[],
  instances: number[],
  payload: Float64Array,
): SortedRecords {
  const value = ordering.startsWith('confidence') ? table.confidence : table.latencyMs;
  const order = orderOfRows(table, ordering, rows);
  const sorted: SortedRecords = {
    instance: new Int32Array(rows.length),
    value: new Float64Array(rows.length),
    payload: new Float64Array(rows.length),
  };
  for (let index = 0; index < order.length; index++) {
    const position = order[index];
    sorted.instance[index] = instances[position];
    sorted.value[index] = value[rows[position]];
    sorted.payload[index] = payload[rows[position]];
  }
  return sorted;
}
