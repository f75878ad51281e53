import { createHash, randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Completion, CompletionRequest, ModelAdapter } from './models/types.js';

/**
 * Completions on disk, addressed by the hash of what determines them (adapter, model, messages,
 * settings, the sample for samples after the first, and the revision the user gives): a rerun of an
 * unchanged suite asks the model only its probe call. Sample 0 and a run without a revision have the
 * keys they always had, so caches made before stay readable. Each entry keeps the model that answered
 * and the backend's fingerprint (ModelCalls uses an entry only while the endpoint serves that model).
 * Failed calls are not cached.
 */
export class CompletionCache {
  constructor(readonly directory: string) {}

  /** What identifies a completion: requests with the same key get the same completion (each sample its own). */
  keyOf(adapter: ModelAdapter, request: CompletionRequest): string {
    const { messages, settings, sample } = request;
    const { id, revision } = adapter;
    return createHash('sha256')
      .update(JSON.stringify({ adapter: id, messages, settings, ...(sample ? { sample } : {}), ...(revision ? { revision } : {}) }))
      .digest('hex');
  }

  private path(adapter: ModelAdapter, request: CompletionRequest): string {
    const key = this.keyOf(adapter, request);
    return join(this.directory, key.slice(0, 2), `${key.slice(2)}.json`);
  }

  async get(adapter: ModelAdapter, request: CompletionRequest): Promise<Completion | undefined> {
    let entry: unknown;
    try {
      entry = JSON.parse(await readFile(this.path(adapter, request), 'utf8'));
    } catch {
      entry = undefined;
    }
    // Anything else (a hand-edited or foreign file) is a miss, and the new completion replaces it.
    return isCompletion(entry) ? entry : undefined;
  }

  /** Throws when the directory cannot be written: the caller decides what that costs (a warning). */
  async set(adapter: ModelAdapter, request: CompletionRequest, completion: Completion): Promise<void> {
    const path = this.path(adapter, request);
    await mkdir(join(path, '..'), { recursive: true });
    // Write then rename: a crash never leaves half a file that a later run would trust. The temporary
    // name is unique, so identical prompts answered at once (or parallel shards) never share one.
    const temporary = `${path}.${process.pid}-${randomBytes(6).toString('hex')}.tmp`;
    try {
      await writeFile(temporary, JSON.stringify({ ...completion, ...(adapter.revision ? { revision: adapter.revision } : {}) }));
      await rename(temporary, path);
    } catch (error) {
      await rm(temporary, { force: true });
      throw error;
    }
  }
}

const OPTIONAL_NUMBERS = ['inputTokens', 'outputTokens', 'confidence', 'latencyMs', 'costUsd'] as const;
const OPTIONAL_STRINGS = ['servedModel', 'systemFingerprint'] as const;

function isCompletion(value: unknown): value is Completion {
  if (typeof value !== 'object' || value === null) return false;
  const entry = value as Record<string, unknown>;
  return (
    typeof entry.text === 'string' &&
    OPTIONAL_NUMBERS.every((name) => entry[name] === undefined || (typeof entry[name] === 'number' && Number.isFinite(entry[name]))) &&
    OPTIONAL_STRINGS.every((name) => entry[name] === undefined || typeof entry[name] === 'string')
  );
}
