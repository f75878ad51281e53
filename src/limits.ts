/*
 * The bounds on what evalgate reads, in one place: input from a pull request, a fork or a model
 * endpoint costs bounded time and memory, and nothing one name holds can fill a report. At the top of
 * src/ like errors.ts, so that every room may use them. docs/record-format.md and docs/policies.md
 * give them to users.
 */

/**
 * The longest line read from a JSON Lines file or a program's output, in bytes: 16 MiB. A record, an
 * instance or an answer holds one example (a long-context prompt of a million tokens is about 4 MB of
 * text); a longer line is a file that is not JSON Lines, or an attack, and reading it whole would cost
 * its size in memory and seconds of parsing.
 */
export const MAX_LINE_BYTES = 16 * 1024 * 1024;

/**
 * The largest answer read from a model endpoint, in bytes: 16 MiB, the bound on a line of a model
 * command's output. A chat completion of the longest outputs models give, with a log-probability per
 * token, is a few MB; an endpoint that sends more is cut off there, so that a gigabyte it streams costs
 * 16 MiB and not a gigabyte.
 */
export const MAX_RESPONSE_BYTES = MAX_LINE_BYTES;

/**
 * The deepest nesting of arrays and objects in a line (or another tool's JSON file): 64 levels.
 * Records, instances and answers nest a few (a chat transcript: 3), HELM's files about 8; much deeper
 * values overflow the stack of whatever walks them later (JSON.stringify, when merge writes them, at
 * about 10,000).
 */
export const MAX_NESTING_DEPTH = 64;

/**
 * The longest name, in characters: scenario names, instance ids, perturbation names, group attributes
 * and values (in records, suites and metrics files), and policy, metric, scope and trade-off names. They
 * are shown in reports: 200 is room for any real name, and a few hundred of them still fit a pull-request
 * comment (65,536 characters).
 */
export const MAX_NAME_LENGTH = 200;

/** "16 MiB (16777216 bytes)" */
export function describeBytes(bytes: number): string {
  const mebibytes = bytes / (1024 * 1024);
  return Number.isInteger(mebibytes) ? `${mebibytes} MiB (${bytes} bytes)` : `${bytes} bytes`;
}
