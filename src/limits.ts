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

/**
 * The most scenarios a records file holds: 20,000. Every scenario is a scope with its own metrics in
 * every report; at this many one-instance scenarios of three records with every field and ten group
 * attributes, a gate against a baseline with every report peaks under 800 MB (docs/benchmarks.md).
 * HELM's largest runs have a few hundred. A file is refused at the record that opens one more.
 */
export const MAX_SCENARIOS = 20_000;

/**
 * The most scenarios given confidence intervals in one computation: 200, besides the pooled scope, as
 * many as the HTML report lists (the comment fits fewer). Each scope's intervals are a bootstrap of it
 * (1,000 to 2,000 resamples) that costs milliseconds even for one instance; past this, the scenarios a
 * check names get theirs first, then the others in order of first appearance, and the rest have point
 * estimates only, which `metrics` and every report say.
 */
export const MAX_INTERVAL_SCENARIOS = 200;

/**
 * The most `groups` attributes in a records file: 10. Each attribute is a column of the whole file, a
 * pass over every record of every scope and metrics in each (20 attributes took a gate of 20,000
 * scenarios to 1 GB); fairness attributes (dialect, gender, region) are a handful.
 */
export const MAX_GROUP_ATTRIBUTES = 10;

/**
 * The most groups (distinct attribute and value pairs) in a records file: 5,000. Each group is a metric
 * of every scope it appears in, with its interval (a bootstrap value per resample); a group is a
 * category many records share, never an identifier.
 */
export const MAX_GROUPS = 5_000;

/**
 * The most perturbations of one instance (distinct `perturbation.name`s, the original aside): 100. An
 * instance's variants are found by walking them; HELM's perturbations of an instance are a dozen.
 */
export const MAX_PERTURBATIONS_PER_INSTANCE = 100;

/** The most records of one example (its repeated samples): 1,000, a record each. Duplicates are found by walking them. */
export const MAX_SAMPLES_PER_EXAMPLE = 1_000;

/** The most verdicts a judge is asked for per completion (`judge_samples`), and a record's `judge.samples` holds. */
export const MAX_JUDGE_SAMPLES = 25;

/**
 * An Inspect `.eval` archive: at most 1 GiB once decompressed in all (as its central directory says,
 * and the data is held to what it says), at most 500,000 entries, and no entry over 1 MiB that
 * decompresses to more than 200 times its compressed size (JSON logs compress 5 to 30 times; a zip
 * bomb a thousand). Checked before anything is decompressed.
 */
export const MAX_ARCHIVE_BYTES = 1024 * 1024 * 1024;
export const MAX_ARCHIVE_ENTRIES = 500_000;
export const MAX_COMPRESSION_RATIO = 200;
/** Entries up to this size are not held to the ratio: a small text of repeated characters compresses far. */
export const RATIO_FREE_ENTRY_BYTES = 1024 * 1024;

/** "16 MiB (16777216 bytes)" */
export function describeBytes(bytes: number): string {
  const mebibytes = bytes / (1024 * 1024);
  return Number.isInteger(mebibytes) ? `${mebibytes} MiB (${bytes} bytes)` : `${bytes} bytes`;
}
