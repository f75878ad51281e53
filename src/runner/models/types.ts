import { UsageError } from '../../errors.js';
import type { ChatMessage, GenerationSettings } from '../suite.js';

/** What a model is asked: the conversation, the settings, and which example and sample it is (for replay and the cache). */
export interface CompletionRequest {
  scenario: string;
  id: string;
  perturbation?: string;
  /** Which repeated sample of the example (`evalgate run --samples`); absent for sample 0. */
  sample?: number;
  messages: ChatMessage[];
  /** The suite's generation settings; a judge's also carry a seed (runner/judge.ts). */
  settings: GenerationSettings & { seed?: number };
  /** A JSON schema the answer should follow (a judge's verdict), asked for where the endpoint takes one. */
  responseFormat?: { name: string; schema: Record<string, unknown> };
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
  /** The model that answered, as the endpoint names it (an OpenAI answer's `model`): the completion cache keeps it. */
  servedModel?: string;
  /** The backend's configuration (an OpenAI answer's `system_fingerprint`): kept in the cache, never part of its key. */
  systemFingerprint?: string;
}

/**
 * A failed call, the one kind of error a run retries (when `retryable`: rate limits, server errors,
 * time-outs, dropped connections) or records. Any other exception from an adapter is a bug and stops
 * the run. `endpoint`: the failure says the endpoint cannot answer any call (unreachable, refused, an
 * unknown host, 401, 403, 404, a model command that exited): on the run's first call it stops the run.
 */
export class AdapterError extends Error {
  readonly retryAfterMs: number | undefined;
  readonly endpoint: boolean;

  constructor(
    message: string,
    readonly retryable: boolean,
    { retryAfterMs, endpoint = false }: { retryAfterMs?: number; endpoint?: boolean } = {},
  ) {
    super(message);
    this.name = 'AdapterError';
    this.retryAfterMs = retryAfterMs;
    this.endpoint = endpoint;
  }
}

/** The model cannot answer: the run's first calls failed (its message redacted), and nothing was written. */
export class EndpointError extends UsageError {
  constructor(message: string) {
    super(message);
    this.name = 'EndpointError';
  }
}

export interface ModelAdapter {
  /** Identifies adapter and model in the completion cache, e.g. "command:python3 model.py". */
  id: string;
  /** The model's name, for prices. */
  model: string;
  /** What the user says the model is (--model-revision): part of every cache key, kept in every entry. */
  revision?: string;
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
