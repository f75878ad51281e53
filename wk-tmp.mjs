import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
if (isMainThread) {
  const W = Number(process.argv[2] ?? 2), N = 2000, C = 32;
  const t = performance.now();
  const workers = Array.from({ length: W }, () => new Worker(new URL(import.meta.url)));
  const pending = new Map(); let seq = 0;
  for (const w of workers) w.on('message', ({ id, result }) => { pending.get(id)(result); pending.delete(id); });
  const call = (i) => new Promise((resolve) => { const id = seq++; pending.set(id, resolve); workers[i % W].postMessage({ id, messages: [{ role: 'user', content: 'question ' + i }] }); });
  let next = 0; const doneAt = [];
  await Promise.all(Array.from({ length: C }, async () => { while (next < N) { await call(next++); doneAt.push(performance.now() - t); } }));
  for (const k of [1, 500, 1000, 2000]) console.log(k, doneAt[k - 1].toFixed(0), 'ms');
  process.exit(0);
} else {
  const { default: OpenAI } = await import('openai');
  const { keepAliveFetch } = await import('./ka2-tmp.mjs');
  const client = new OpenAI({ apiKey: 'k', baseURL: 'http://127.0.0.1:18081/v1', maxRetries: 0, logLevel: 'off', fetch: keepAliveFetch });
  parentPort.on('message', async ({ id, messages }) => {
    const r = await client.chat.completions.create({ model: 'bench', messages, logprobs: true });
    parentPort.postMessage({ id, result: { text: r.choices[0].message.content, usage: r.usage } });
  });
}
