import { sortPositionsByKey, sortRowsByValue } from '../stats/sort.js';
import { grownShared } from './columns.js';
import type { MetricsTable, RowOrder } from './table.js';

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

/** The columns records are ordered by. */
export type OrderedColumn = 'confidence' | 'latencyMs';

const ORDERED_COLUMNS: OrderedColumn[] = ['confidence', 'latencyMs'];

/**
 * Every row's rank when the table's rows that have a value are ordered by it, ties in input order.
 * Computed once per table and kept in it; scopes and bootstrap subsets then order their rows by
 * these integers, much faster than comparing values. In shared memory: a metrics thread sent the
 * table reads them without a copy (orderedRows).
 */
function rowOrder(table: MetricsTable, column: OrderedColumn): RowOrder {
  const known = table.orderings.get(column);
  if (known) return known;
  const values = table[column];
  const sorted = sortRowsByValue(values, rowsWithValue(values));
  const rowAtRank = grownShared(sorted, sorted.length);
  const rankOf = new Int32Array(new SharedArrayBuffer(values.length * Int32Array.BYTES_PER_ELEMENT)).fill(-1);
  for (let rank = 0; rank < rowAtRank.length; rank++) rankOf[rowAtRank[rank]] = rank;
  const order = { rankOf, rowAtRank };
  table.orderings.set(column, order);
  return order;
}

/** The rows that have a value (not NaN), in order: counted first, so that they fill a typed array (a pushed array of 300,000 took 40 ms). */
function rowsWithValue(values: Float64Array): Int32Array {
  const rows = new Int32Array(countValues(values));
  let next = 0;
  for (let row = 0; row < values.length; row++) if (!Number.isNaN(values[row])) rows[next++] = row;
  return rows;
}

/** How many values are not NaN: a function that ends with its loop (code after a loop V8 optimized midway bailed out). */
function countValues(values: Float64Array): number {
  let count = 0;
  for (let row = 0; row < values.length; row++) if (!Number.isNaN(values[row])) count++;
  return count;
}

/** The table's rows ordered by every column the metrics order them by: made once, for the metrics thread too (pipeline/metrics-thread.ts). */
export function orderedRows(table: MetricsTable): MetricsTable['orderings'] {
  for (const column of ORDERED_COLUMNS) rowOrder(table, column);
  return table.orderings;
}

/** The positions in `rows` of those rows, ordered: for a large share of the table, by walking the table's order. */
function orderOfRows(table: MetricsTable, column: OrderedColumn, rows: Int32Array): Int32Array {
  const { rankOf, rowAtRank } = rowOrder(table, column);
  if (rows.length * 16 > table.size) {
    const order = new Int32Array(rows.length);
    const positionOf = new Int32Array(table.size).fill(-1);
    for (let position = 0; position < rows.length; position++) positionOf[rows[position]] = position;
    let next = 0;
    for (let rank = 0; rank < rowAtRank.length; rank++) {
      const position = positionOf[rowAtRank[rank]];
      if (position >= 0) order[next++] = position;
    }
    return order;
  }
  // A small set (a bootstrap subset): sort its positions by rank.
  return sortPositionsByKey(ranksOf(rows, rankOf), table.size);
}

/** The rows' ranks: a function that ends with its loop (code after a loop V8 optimized midway bailed out, no type feedback yet). */
function ranksOf(rows: Int32Array, rankOf: Int32Array): Int32Array {
  const ranks = new Int32Array(rows.length);
  for (let position = 0; position < rows.length; position++) ranks[position] = rankOf[rows[position]];
  return ranks;
}

/** The records at `rows` (of scope instances `instances`), ascending by the column, ties in input order. */
export function sortRecords(
  table: MetricsTable,
  column: OrderedColumn,
  rows: Int32Array,
  instances: Int32Array,
  payload: Float64Array,
): SortedRecords {
  const value = table[column];
  const order = orderOfRows(table, column, rows);
  const sorted: SortedRecords = {
    instance: new Int32Array(rows.length),
    value: new Float64Array(rows.length),
    payload: new Float64Array(rows.length),
  };
  for (let index = 0; index < order.length; index++) {
    const position = order[index];
    const row = rows[position];
    sorted.instance[index] = instances[position];
    sorted.value[index] = value[row];
    sorted.payload[index] = payload[row];
  }
  return sorted;
}

/** The same records from the largest value down, ties still in input order. */
export function reverseKeepingTies({ instance, value, payload }: SortedRecords): SortedRecords {
  const reversed: SortedRecords = {
    instance: new Int32Array(instance.length),
    value: new Float64Array(value.length),
    payload: new Float64Array(payload.length),
  };
  let next = 0;
  let end = value.length;
  while (end > 0) {
    let begin = end - 1;
    while (begin > 0 && value[begin - 1] === value[end - 1]) begin--;
    for (let index = begin; index < end; index++, next++) {
      reversed.instance[next] = instance[index];
      reversed.value[next] = value[index];
      reversed.payload[next] = payload[index];
    }
    end = begin;
  }
  return reversed;
}
