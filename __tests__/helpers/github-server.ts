import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A stand-in for the GitHub REST endpoints the action uses, on 127.0.0.1: issue comments (paginated
 * with Link headers, created and updated, at most 65,536 characters as on GitHub), file contents at a
 * commit, pull requests (by number, and listed by head, newest first as GitHub lists them), commit
 * statuses (and the state of each context, the newest winning as on GitHub), and /user.
 */
export interface Comment {
  id: number;
  /** The issue or pull request it is on; a comment a test adds without one is on every one. */
  issue?: number;
  body: string;
  user: { login: string; type: 'User' | 'Bot' };
  html_url: string;
}

export interface FakePull {
  head: { sha: string; ref?: string; owner?: string };
  base?: { sha: string; ref: string };
  labels?: string[];
}

export interface CommitStatus {
  sha: string;
  state: string;
  context: string;
  description?: string;
  target_url?: string;
}

/** An answer every comment request gets instead of the usual one (a rate limit, a server error). */
export interface Failure {
  status: number;
  message: string;
  headers?: Record<string, string>;
}

export interface FakeGitHub {
  url: string;
  comments: Comment[];
  /** Files by "ref:path". */
  files: Map<string, string>;
  /** Pull requests by number. */
  pulls: Map<number, FakePull>;
  statuses: CommitStatus[];
  /** The state of each status context of a commit as GitHub shows it: the newest status of each. */
  statesOf(sha: string): Record<string, string>;
  /** Methods of write requests refused with 403 (a fork's read-only token). */
  readOnly: boolean;
  commentFailure: Failure | undefined;
  requests: string[];
  /** Forgets everything the tests set and every request seen: a fresh repository for the next test. */
  reset(): void;
  close(): Promise<void>;
}

const PER_PAGE_MAX = 100;
const MAX_BODY = 65536;

function pullJson(number: number, pull: FakePull, owner: string, repo: string) {
  const headOwner = pull.head.owner ?? owner;
  const headRef = pull.head.ref ?? 'feature';
  return {
    number,
    state: 'open',
    head: { sha: pull.head.sha, ref: headRef, label: `${headOwner}:${headRef}`, repo: { full_name: `${headOwner}/${repo}` } },
    base: { sha: pull.base?.sha ?? 'b'.repeat(40), ref: pull.base?.ref ?? 'main', repo: { full_name: `${owner}/${repo}` } },
    labels: (pull.labels ?? []).map((name) => ({ name })),
  };
}

export async function startFakeGitHub(owner: string, repo: string): Promise<FakeGitHub> {
  const state = {
    comments: [] as Comment[],
    files: new Map<string, string>(),
    pulls: new Map<number, FakePull>(),
    statuses: [] as CommitStatus[],
    readOnly: false,
    commentFailure: undefined as Failure | undefined,
    requests: [] as string[],
  };
  let nextId = 1000;
  const server: Server = createServer(async (request: IncomingMessage, response: ServerResponse) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    state.requests.push(`${request.method} ${url.pathname}${url.search}`);
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = chunks.length ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : undefined;
    const send = (status: number, data: unknown, headers: Record<string, string> = {}) => {
      response.writeHead(status, { 'content-type': 'application/json', ...headers });
      response.end(JSON.stringify(data));
    };
    const base = `/repos/${owner}/${repo}`;
    const commentsPath = new RegExp(`^${base}/issues/(\\d+)/comments$`);
    const commentPath = new RegExp(`^${base}/issues/comments/(\\d+)$`);
    if (url.pathname === '/user') return send(403, { message: 'Resource not accessible by integration' });
    const pull = new RegExp(`^${base}/pulls/(\\d+)$`).exec(url.pathname);
    if (pull && request.method === 'GET') {
      const found = state.pulls.get(Number(pull[1]));
      return found ? send(200, pullJson(Number(pull[1]), found, owner, repo)) : send(404, { message: 'Not Found' });
    }
    if (url.pathname === `${base}/pulls` && request.method === 'GET') {
      const head = url.searchParams.get('head');
      const listed = [...state.pulls].sort(([a], [b]) => b - a).map(([number, found]) => pullJson(number, found, owner, repo));
      return send(
        200,
        listed.filter((entry) => head === null || entry.head.label === head),
      );
    }
    const status = new RegExp(`^${base}/statuses/([0-9a-f]{40})$`).exec(url.pathname);
    if (status && request.method === 'POST') {
      if (state.readOnly) return send(403, { message: 'Resource not accessible by integration' });
      state.statuses.push({ sha: status[1], ...body });
      return send(201, { id: state.statuses.length, ...body });
    }
    const isComments = commentsPath.test(url.pathname) || commentPath.test(url.pathname);
    if (isComments && state.commentFailure) {
      const failure = state.commentFailure;
      return send(failure.status, { message: failure.message }, failure.headers);
    }
    const tooLong = () =>
      send(422, { message: 'Validation Failed', errors: [{ message: `Body is too long (maximum is ${MAX_BODY} characters)` }] });
    let match = commentsPath.exec(url.pathname);
    if (match && request.method === 'GET') {
      const perPage = Math.min(Number(url.searchParams.get('per_page') ?? 30), PER_PAGE_MAX);
      const page = Number(url.searchParams.get('page') ?? 1);
      const onIssue = state.comments.filter((comment) => comment.issue === undefined || comment.issue === Number(match![1]));
      const pages = Math.max(1, Math.ceil(onIssue.length / perPage));
      const link: Record<string, string> =
        page < pages ? { link: `<http://${request.headers.host}${url.pathname}?per_page=${perPage}&page=${page + 1}>; rel="next"` } : {};
      return send(200, onIssue.slice((page - 1) * perPage, page * perPage), link);
    }
    if (match && request.method === 'POST') {
      if (state.readOnly) return send(403, { message: 'Resource not accessible by integration' });
      if (body.body.length > MAX_BODY) return tooLong();
      const id = nextId++;
      const comment = {
        id,
        issue: Number(match[1]),
        body: body.body,
        user: { login: 'github-actions[bot]', type: 'Bot' as const },
        html_url: `https://github.com/${owner}/${repo}/pull/${match[1]}#issuecomment-${id}`,
      };
      state.comments.push(comment);
      return send(201, comment);
    }
    match = commentPath.exec(url.pathname);
    if (match && request.method === 'PATCH') {
      if (state.readOnly) return send(403, { message: 'Resource not accessible by integration' });
      if (body.body.length > MAX_BODY) return tooLong();
      const comment = state.comments.find((entry) => entry.id === Number(match![1]));
      if (!comment) return send(404, { message: 'Not Found' });
      comment.body = body.body;
      return send(200, comment);
    }
    const contentsPrefix = `${base}/contents/`;
    if (url.pathname.startsWith(contentsPrefix) && request.method === 'GET') {
      const path = decodeURIComponent(url.pathname.slice(contentsPrefix.length));
      const text = state.files.get(`${url.searchParams.get('ref')}:${path}`);
      if (text === undefined) return send(404, { message: 'Not Found' });
      return send(200, { type: 'file', encoding: 'base64', path, content: Buffer.from(text).toString('base64') });
    }
    send(404, { message: `no stand-in for ${request.method} ${url.pathname}` });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    reset() {
      state.comments.length = 0;
      state.files.clear();
      state.pulls.clear();
      state.statuses.length = 0;
      state.readOnly = false;
      state.commentFailure = undefined;
      state.requests.length = 0;
    },
    get comments() {
      return state.comments;
    },
    files: state.files,
    pulls: state.pulls,
    statuses: state.statuses,
    statesOf: (sha) =>
      Object.fromEntries(state.statuses.filter((status) => status.sha === sha).map((status) => [status.context, status.state])),
    get readOnly() {
      return state.readOnly;
    },
    set readOnly(value: boolean) {
      state.readOnly = value;
    },
    get commentFailure() {
      return state.commentFailure;
    },
    set commentFailure(value: Failure | undefined) {
      state.commentFailure = value;
    },
    requests: state.requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
