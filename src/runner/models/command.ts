import { JsonLinesProcess } from '../../process/json-lines.js';
import { AdapterError, type ModelAdapter } from './types.js';

/**
 * `command:"CMD ARGS"`: one long-running program that reads a JSON request per line on stdin and
 * writes a JSON response per line on stdout, matched by `id`:
 *   request  {"id": "17", "messages": [{"role": "user", "content": "..."}], "settings": {...}}
 *   response {"id": "17", "text": "...", "input_tokens": 12, "output_tokens": 3, "confidence": 0.9, "model": "..."}
 *        or  {"id": "17", "error": "...", "retryable": true}
 * `model` (optional) names what answered, for the completion cache.
 * Responses may come in any order; the program's stderr goes to evalgate's stderr.
 */
export function commandAdapter(command: string, revision?: string): ModelAdapter {
  const program = new JsonLinesProcess(command, 'the model command');
  const number = (value: unknown) => (typeof value === 'number' ? value : undefined);
  return {
    id: `command:${command}`,
    model: command,
    revision,
    // The program gets evalgate's environment, the key among it, and may quote it in an error.
    secrets: process.env.OPENAI_API_KEY ? [process.env.OPENAI_API_KEY] : [],
    async complete(request, signal) {
      let response: Record<string, unknown>;
      try {
        response = await program.request({ messages: request.messages, settings: request.settings }, signal);
      } catch (error) {
        // A time-out may be retried; a program that died (or broke the protocol) answers no call again.
        throw new AdapterError((error as Error).message, signal.aborted, { endpoint: !signal.aborted });
      }
      if (typeof response.error === 'string') throw new AdapterError(response.error, response.retryable === true);
      if (typeof response.text !== 'string') throw new AdapterError('the model command answered without "text"', false);
      return {
        text: response.text,
        inputTokens: number(response.input_tokens),
        outputTokens: number(response.output_tokens),
        confidence: number(response.confidence),
        servedModel: typeof response.model === 'string' ? response.model : undefined,
      };
    },
    close: () => program.close(),
  };
}
