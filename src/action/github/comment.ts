import type { getOctokit } from '@actions/github';
import { createHash } from 'node:crypto';

type Octokit = ReturnType<typeof getOctokit>;

/** Marker text that cannot end the HTML comment ("--", ">") or its line, with "%" escaped first so that escapes never collide. */
function markerText(text: string): string {
  return text.replace(/%/g, '%25').replace(/>/g, '%3E').replace(/--/g, '-%2D').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

/** Longer (escaped) names are cut to MARKER_KEPT characters and told apart by a hash, so that a comment always fits GitHub's 65,536. */
const MARKER_NAME_MAX = 100;
const MARKER_KEPT = 64;

function cappedMarkerText(text: string): string {
  const escaped = markerText(text);
  if (escaped.length <= MARKER_NAME_MAX) return escaped;
  // "%…" never appears in an escaped name (every "%" of a name becomes "%25"): a cut name is never another whole one.
  const kept = Array.from(escaped).slice(0, MARKER_KEPT).join('');
  return `${kept}%…${createHash('sha256').update(text).digest('hex').slice(0, 16)}`;
}

/** Whose comment: a policy file (its name, and its path in the repository) and an id (matrix jobs). */
export interface CommentIdentity {
  policy: string;
  id?: string;
  /** Undefined: the marker earlier versions wrote, with the name and the id only. */
  path?: string;
}

/** A marker part whose end is never in doubt: its spaces escaped too. */
const spaceless = (text: string) => cappedMarkerText(text).replace(/\s/g, (space) => encodeURIComponent(space));

/**
 * The hidden marker, the comment's first line, that finds a policy file's comment again: one comment
 * per policy file (its path in the repository, so that two files with one `name` never share a
 * comment) and id, for matrix jobs. Escaped so that it cannot end the HTML comment and two policies
 * (or ids, or paths) never share a marker; names without "%", ">", "--" or line ends of up to 100
 * characters appear as they are. Without a path: the marker earlier versions wrote.
 */
export function commentMarker({ policy, id, path }: CommentIdentity): string {
  // The id and the path come first, so that where each ends is never in doubt; the name, free text, last.
  const idPart = id === undefined ? '' : `id=${spaceless(id)} `;
  const pathPart = path === undefined ? '' : `path=${spaceless(path)} `;
  return `<!-- evalgate:${idPart}${pathPart}policy=${cappedMarkerText(policy)} -->`;
}

/**
 * Who the token writes as, when the API says: the user of a personal token. An installation token
 * (GITHUB_TOKEN, or a GitHub App's) may not ask: undefined then.
 */
async function tokenLogin(octokit: Octokit): Promise<string | undefined> {
  try {
    return (await octokit.rest.users.getAuthenticated()).data.login;
  } catch {
    return undefined;
  }
}

export interface CommentTarget {
  owner: string;
  repo: string;
  issueNumber: number;
}

export interface CommentOutcome {
  url: string;
  action: 'created' | 'updated' | 'unchanged';
}

/**
 * Creates the comment (the marker, then the markdown), or updates the one evalgate wrote before for
 * the same policy file and id (looking through every page of comments); leaves it alone when nothing
 * changed. A comment with the marker earlier versions wrote (name and id, no path) is taken over when
 * none has the current marker: updating it writes the current marker, so of two policy files with one
 * name that shared it, the first to run takes it and the other, no longer finding it, starts its own.
 */
export async function upsertComment(
  octokit: Octokit,
  target: CommentTarget,
  identity: CommentIdentity & { path: string },
  markdown: string,
): Promise<CommentOutcome> {
  const { owner, repo, issueNumber } = target;
  const marker = commentMarker(identity);
  const body = `${marker}\n${markdown}`;
  const login = await tokenLogin(octokit);
  const comments = await octokit.paginate(octokit.rest.issues.listComments, { owner, repo, issue_number: issueNumber, per_page: 100 });
  // Ours: it starts with the marker, and was written by this user, or (when the token cannot say who
  // it is) by a bot, as github-actions[bot] and every GitHub App are; never a person's comment.
  const markedBy = (wanted: string) =>
    comments.find(
      (comment) => comment.body?.split('\n', 1)[0] === wanted && (login ? comment.user?.login === login : comment.user?.type === 'Bot'),
    );
  const mine = markedBy(marker) ?? markedBy(commentMarker({ policy: identity.policy, id: identity.id }));
  if (mine) {
    if (mine.body === body) return { url: mine.html_url, action: 'unchanged' };
    const { data } = await octokit.rest.issues.updateComment({ owner, repo, comment_id: mine.id, body });
    return { url: data.html_url, action: 'updated' };
  }
  const { data } = await octokit.rest.issues.createComment({ owner, repo, issue_number: issueNumber, body });
  return { url: data.html_url, action: 'created' };
}

/** The text of a file at a commit, or undefined when it does not exist there. */
export async function fileAtCommit(octokit: Octokit, owner: string, repo: string, path: string, ref: string): Promise<string | undefined> {
  try {
    const { data } = await octokit.rest.repos.getContent({ owner, repo, path, ref });
    if (Array.isArray(data) || data.type !== 'file' || !('content' in data)) return undefined;
    return Buffer.from(data.content, 'base64').toString('utf8');
  } catch (error) {
    if ((error as { status?: number }).status === 404) return undefined;
    throw error;
  }
}
