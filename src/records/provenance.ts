import { createHash } from 'node:crypto';
import { instanceKey } from './key.js';
import type { EvalRecord } from './types.js';

/*
 * What a record answered: hashes of its instance's own fields (before any prompt template), so that the
 * gate pairs two runs' records of an instance only when they asked the same question
 * (docs/record-format.md#provenance). A hash is the SHA-256 of the value's canonical JSON (RFC 8785,
 * JCS: object keys sorted by UTF-16 code units, no whitespace, strings and numbers as JSON.stringify
 * writes them), in 64 lowercase hex digits, untruncated: any tool can compute it with a standard
 * library, and no collision argument is needed.
 */

export interface Provenance {
  /** The instance's input (a string, or chat messages) and choices, before templating. */
  input_hash?: string;
  /** The instance's references. */
  references_hash?: string;
  /** The scorer's fingerprint (a judge's model, template, decoding, parser: runner/scoring/judge-prompt.ts): the gate compares it per scenario. */
  scorer?: string;
  /** The suite's hash, of its file and data files (`evalgate run`): shown in the gate's report. */
  suite_hash?: string;
}

/** The canonical JSON of a value (RFC 8785): keys sorted, no whitespace; undefined members left out as JSON.stringify does. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, member: unknown) => {
    if (typeof member !== 'object' || member === null || Array.isArray(member)) return member;
    const sorted: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
    for (const key of Object.keys(member).sort()) sorted[key] = (member as Record<string, unknown>)[key];
    return sorted;
  });
}

/** SHA-256 of a text (UTF-8), hex. */
export function sha256Hex(text: string | Buffer): string {
  return createHash('sha256').update(text).digest('hex');
}

/** The hash of a value's canonical JSON. */
export const hashOf = (value: unknown): string => sha256Hex(canonicalJson(value));

/**
 * The provenance of an instance from what is known of its own fields: `input_hash` of
 * {"input": input, "choices": choices} (choices left out when there are none), `references_hash` of the
 * references as an array (a single reference as an array of one). A field unknown is left out.
 */
export function provenanceOf({
  input,
  choices,
  references,
}: {
  input?: unknown;
  choices?: readonly string[] | null;
  references?: string | readonly string[] | null;
}): Provenance | undefined {
  const provenance: Provenance = {};
  if (input !== undefined && input !== null) {
    provenance.input_hash = hashOf(choices && choices.length > 0 ? { input, choices } : { input });
  }
  if (references !== undefined && references !== null) {
    provenance.references_hash = hashOf(typeof references === 'string' ? [references] : references);
  }
  return provenance.input_hash || provenance.references_hash ? provenance : undefined;
}

/**
 * Gives each record without provenance that of its instance, from the `input` and `references` of the
 * instance's original record (no perturbation; its first sample): the same on every record of the
 * instance, as the gate asks. An instance without an original record gets none.
 */
export function fillProvenance(records: EvalRecord[]): void {
  const byInstance = new Map<string, Provenance | undefined>();
  for (const record of records) {
    const key = instanceKey(record.scenario, record.id);
    if (!record.perturbation && !byInstance.has(key)) byInstance.set(key, provenanceOf(record));
  }
  for (const record of records) {
    const provenance = record.provenance ?? byInstance.get(instanceKey(record.scenario, record.id));
    if (provenance) record.provenance = provenance;
  }
}
