import { hashOf, sha256Hex } from '../records/provenance.js';
import { MAX_FINGERPRINT_LENGTH } from '../records/validate.js';

/*
 * A judge's identity as another tool's output gives it (Inspect's model-graded scores, promptfoo's
 * model-graded assertions), written as the records' `provenance.scorer`, so that the gate refuses to
 * compare grades of two judges in imported records as it does in evalgate's own
 * (docs/importing.md#judged-records). Like evalgate's fingerprints it starts with "judge" and is made of
 * space-separated key=value parts, which a reason names by the parts in which two judges differ.
 */

/** A part's value with its spaces escaped (a part is one word). */
const word = (value: string) => value.replace(/%/g, '%25').replace(/\s/g, (space) => encodeURIComponent(space));

/** The first 16 hex digits of the SHA-256 of a value's canonical JSON: a template's or options' identity. */
export const shortHash = (value: unknown): string => hashOf(value).slice(0, 16);

/** "judge source=inspect scorer=model_graded_qa model=openai/gpt-4o params=0123456789abcdef" (undefined parts left out). */
export function importedJudge(source: string, parts: Array<[string, string | undefined]>): string {
  const said = parts.filter(([, value]) => value !== undefined).map(([key, value]) => `${key}=${word(value!)}`);
  const fingerprint = ['judge', `source=${source}`, ...said].join(' ');
  // Names beyond the bound are cut with their hash kept: two fingerprints still differ when the judges do.
  return fingerprint.length <= MAX_FINGERPRINT_LENGTH
    ? fingerprint
    : `${fingerprint.slice(0, MAX_FINGERPRINT_LENGTH - 80)}... sha256=${sha256Hex(fingerprint)}`;
}
