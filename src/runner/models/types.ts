import type { ChatMessage, GenerationSettings } from '../suite.js';

/** What a model is asked: the conversation, the settings, and which example and sample it is (for replay and the cache). */
export interface CompletionRequest {
  scenario: string;
  id: string;
  perturbation?: string;
  /** Which repeated sample of the example (`evalgate run --samples`); absent for sample 0. */
  sample?: number;
  messages: ChatMessage[];
  settings: GenerationSettings;
}

export interface Completion {
  text: string;
  inputTokens?: number;
  outputTokens?: number;
  /** The model's probability for its answer (HELM's max_prob), when it reports one. */
  confidence?: number;
  /** How long the call took when it was made (kept in the completion cache, and by replay). */
  latencyMs?: number;
  /** What the call cost when it was made (kept by replay). */
  costUsd?: number;
}

/** A failed call; `retryable` for rate limits, server errors, time-outs and dropped connections. */
export class AdapterError extends Error {
  constructor(
    message: string,
    readonly retryable: boolean,
    readonly retryAfterMs?: number,
  ) {
    super(message);
    this.name = 'AdapterError';
  }
}

export interface ModelAdapter {
  /** Identifies adapter and model in the completion cache, e.g. "command:python3 model.py". */
  id: string;
  /** The model's name, for prices. */
  model: string;
  /** What the adapter holds that no record, warning or log may show (its API key, its URL's password): see redact.ts. */
  secrets: readonly string[];
  /**
   * Answers come from stored records (replay), not a model: each keeps the latency and cost stored
   * with it, and none is cached (the cache is keyed by messages, so it would give instances with the
   * same prompt one answer, and hide edits to the stored file).
   */
  stored?: boolean;
  complete(request: CompletionRequest, signal: AbortSignal): Promise<Completion>;
  close(): Promise<void>;
}
