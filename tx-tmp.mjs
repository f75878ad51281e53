const PORT = process.env.PORT ?? 18081;
import { Agent, request } from 'node:http';
import { Pool } from 'undici';
const N = 2000, C = 32;
const body = JSON.stringify({ model: 'bench', messages: [{ role: 'user', content: 'question 1' }], logprobs: true });
const agent = new Agent({ keepAlive: true, maxSockets: 256 });
const pool = new Pool(`http://127.0.0.1:${PORT}`, { connections: 256 });
const ways = {
  http: () => new Promise((resolve, reject) => {
    const r = request(`http://127.0.0.1:${PORT}/v1/chat/completions`, { method: 'POST', agent, headers: { 'content-type': 'application/json', authorization: 'Bearer k', 'x-stainless-a': '1', 'x-stainless-b': '2', 'x-stainless-c': '3', 'user-agent': 'OpenAI/JS 6' } }, (res) => {
      const chunks = []; res.on('data', (c) => chunks.push(c)); res.on('end', () => resolve(JSON.parse(Buffer.concat(chunks).toString())));
    }); r.on('error', reject); r.end(body);
  }),
  undici: async () => { const { body: b } = await pool.request({ path: '/v1/chat/completions', method: 'POST', headers: { 'content-type': 'application/json', authorization: 'Bearer k', 'x-stainless-a': '1', 'x-stainless-b': '2', 'x-stainless-c': '3', 'user-agent': 'OpenAI/JS 6' }, body }); return b.json(); },
};
const fn = ways[process.argv[2]];
let next = 0; const t = performance.now();
await Promise.all(Array.from({ length: C }, async () => { while (next++ < N) await fn(); }));
console.error(process.argv[2], (performance.now() - t).toFixed(0));
process.exit(0);
