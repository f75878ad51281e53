import { afterAll, beforeAll } from '@jest/globals';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A stand-in for the Actions cache service (v2, Twirp JSON) on 127.0.0.1: create an entry, take the
 * archive by PUT to its "signed" URL, finalize, and hand out a download URL for a key or the newest
 * entry under a restore prefix. Enough for a real save -> restore round trip through @actions/cache.
 * It can fail as the real one does: refuse lookups with an HTTP status, or serve archives that are not
 * what was uploaded.
 */
export interface FakeCache {
  url: string;
  /** Keys of finalized entries, oldest first. */
  keys(): string[];
  /** Every lookup answered with this HTTP status and a Twirp error (403: the run may not read the cache). */
  failLookups?: number;
  /** Every download serves bytes that are no archive (a damaged blob: tar fails). */
  corruptArchives: boolean;
  close(): Promise<void>;
}

const SERVICE = '/twirp/github.actions.results.api.v1.CacheService/';

export async function startFakeCache(): Promise<FakeCache> {
  const entries: Array<{ key: string; version: string; data?: Buffer; finalized: boolean }> = [];
  const failures = { failLookups: undefined as number | undefined, corruptArchives: false };
  const server: Server = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    const json = (status: number, data: unknown) => {
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(data));
    };
    const origin = `http://${request.headers.host}`;
    if (request.method === 'POST' && url.pathname.startsWith(SERVICE)) {
      const call = url.pathname.slice(SERVICE.length);
      const input = JSON.parse(body.toString('utf8') || '{}') as { key: string; version: string; restore_keys?: string[] };
      if (call === 'CreateCacheEntry') {
        if (entries.some((entry) => entry.key === input.key && entry.version === input.version))
          return json(409, { code: 'already_exists', msg: 'cache entry exists' });
        entries.push({ key: input.key, version: input.version, finalized: false });
        return json(200, { ok: true, signed_upload_url: `${origin}/blob/${entries.length - 1}` });
      }
      if (call === 'FinalizeCacheEntryUpload') {
        const entry = entries.find((candidate) => candidate.key === input.key && candidate.version === input.version);
        if (!entry?.data) return json(404, { code: 'not_found', msg: 'no upload' });
        entry.finalized = true;
        return json(200, { ok: true, entry_id: String(entries.indexOf(entry) + 1) });
      }
      if (call === 'GetCacheEntryDownloadURL') {
        if (failures.failLookups)
          return json(failures.failLookups, { code: 'permission_denied', msg: 'cache read denied: no readable scope' });
        const ready = entries.filter((entry) => entry.finalized && entry.version === input.version);
        const exact = ready.find((entry) => entry.key === input.key);
        const prefixed = [...ready].reverse().find((entry) => (input.restore_keys ?? []).some((prefix) => entry.key.startsWith(prefix)));
        const found = exact ?? prefixed;
        if (!found) return json(200, { ok: false, signed_download_url: '', matched_key: '' });
        return json(200, { ok: true, signed_download_url: `${origin}/blob/${entries.indexOf(found)}`, matched_key: found.key });
      }
      return json(404, { code: 'not_found', msg: call });
    }
    const blob = /^\/blob\/(\d+)$/.exec(url.pathname);
    const entry = blob ? entries[Number(blob[1])] : undefined;
    if (entry && request.method === 'PUT') {
      entry.data = body;
      response.writeHead(201);
      return response.end();
    }
    if (entry?.data && (request.method === 'GET' || request.method === 'HEAD')) {
      const data = failures.corruptArchives ? Buffer.alloc(entry.data.length, 'not an archive ') : entry.data;
      response.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': String(data.length) });
      return response.end(request.method === 'GET' ? data : undefined);
    }
    json(404, { message: `no stand-in for ${request.method} ${url.pathname}` });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    keys: () => entries.filter((entry) => entry.finalized).map((entry) => entry.key),
    get failLookups() {
      return failures.failLookups;
    },
    set failLookups(status: number | undefined) {
      failures.failLookups = status;
    },
    get corruptArchives() {
      return failures.corruptArchives;
    },
    set corruptArchives(value: boolean) {
      failures.corruptArchives = value;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const CACHE_VARIABLES = ['ACTIONS_CACHE_SERVICE_V2', 'ACTIONS_RESULTS_URL', 'ACTIONS_RUNTIME_TOKEN'] as const;

/**
 * The stand-in for the tests of one file that run the action in-process: started before them, found by
 * the real @actions/cache through the environment as on a runner (set before, restored after), and
 * handed to `use`.
 */
export function useFakeCacheInProcess(use: (cache: FakeCache) => void): void {
  let cache: FakeCache;
  const saved = CACHE_VARIABLES.map((name) => process.env[name]);
  const write = process.stdout.write;
  beforeAll(async () => {
    cache = await startFakeCache();
    use(cache);
    Object.assign(process.env, {
      ACTIONS_CACHE_SERVICE_V2: 'true',
      ACTIONS_RESULTS_URL: cache.url,
      ACTIONS_RUNTIME_TOKEN: 'runtime-token',
    });
    // @actions/cache logs to stdout as on a runner: its ::debug:: lines are kept out of the test's output.
    process.stdout.write = ((chunk: string | Uint8Array, ...rest: never[]) =>
      String(chunk).startsWith('::debug::') || write.call(process.stdout, chunk, ...rest)) as typeof process.stdout.write;
  });
  afterAll(async () => {
    process.stdout.write = write;
    await cache.close();
    CACHE_VARIABLES.forEach((name, i) => {
      if (saved[i] === undefined) delete process.env[name];
      else process.env[name] = saved[i];
    });
  });
}

/** The environment through which @actions/cache (the bundle's, or this process's) finds the stand-in, as on a runner. */
export const cacheEnvironment = (cache: FakeCache) => ({
  ACTIONS_CACHE_SERVICE_V2: 'true',
  ACTIONS_RESULTS_URL: cache.url,
  ACTIONS_RUNTIME_TOKEN: 'runtime-token',
});

/** The stand-in for the tests of one file that run the bundle (given cacheEnvironment): started before them, closed after. */
export function useFakeCache(use: (cache: FakeCache) => void): void {
  let cache: FakeCache;
  beforeAll(async () => {
    cache = await startFakeCache();
    use(cache);
  });
  afterAll(async () => {
    await cache.close();
  });
}
