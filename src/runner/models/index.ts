import { UsageError } from '../../errors.js';
import { commandAdapter } from './command.js';
import { openaiAdapter } from './openai.js';
import { replayAdapter } from './replay.js';
import type { ModelAdapter } from './types.js';

export interface AdapterOptions {
  /** An OpenAI-compatible endpoint (--base-url). */
  baseUrl?: string;
  /** What the user says the model is (--model-revision): part of the completion cache's keys. */
  revision?: string;
}

/** Each kind of --model spec ("KIND:REST"): how it is written, and the adapter it makes. */
const ADAPTERS: Record<string, { usage: string; create: (rest: string, options: AdapterOptions) => Promise<ModelAdapter> }> = {
  openai: { usage: 'openai:MODEL', create: (model, { baseUrl, revision }) => openaiAdapter(model, baseUrl, revision) },
  command: {
    usage: 'command:"CMD ARGS"',
    create: async (command, { revision }) => commandAdapter(command.replace(/^"(.*)"$/, '$1'), revision),
  },
  replay: { usage: 'replay:RECORDS.jsonl', create: (file) => replayAdapter(file) },
};

/** The adapter of a --model spec. */
export async function adapterFromSpec(spec: string, options: AdapterOptions = {}): Promise<ModelAdapter> {
  const split = spec.indexOf(':');
  const rest = spec.slice(split + 1).trim();
  const adapter = split > 0 && rest ? ADAPTERS[spec.slice(0, split)] : undefined;
  if (adapter && Object.hasOwn(ADAPTERS, spec.slice(0, split))) return adapter.create(rest, options);
  const usages = Object.values(ADAPTERS).map(({ usage }) => usage);
  throw new UsageError(`--model expects ${usages.slice(0, -1).join(', ')} or ${usages.at(-1)}, got "${spec}"`);
}
