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

/**
 * The hidden marker, the comment's first line, that finds a policy's comment again: one comment per
 * policy (and id, for matrix jobs). Escaped so that it cannot end the HTML comment and two policies
 * (or ids) never share a marker; names without "%", ">", "--" or line ends of up to 100 characters
 * appear as they are, and the marker of a policy without an id is the one earlier versions wrote.
 */
export function commentMarker(policyName: string, id?: string): string {
  // The id comes first, with its spaces escaped too, so that where it ends is never in doubt.
  const idPart = id === undefined ? '' : `id=${cappedMarkerText(id).replace(/\s/g, (space) => encodeURIComponent(space))} `;
  return `<!-- evalgate:${idPart}policy=${cappedMarkerText(policyName)} -->`;
}

/**
 * Who the token writes as, when the API says: the user of a personal token. An installation token
 * (GITHUB_TOKEN, or a GitHub App's) may not ask: undefined then.
 */
async function identity(octokit: Octokit): Promise<string | undefined> {
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
 * Creates the comment, or updates the one evalgate wrote before for the same marker (looking
 * through every page of comments); leaves it alone when nothing changed.
 */
export async function upsertComment(octokit: Octokit, target: CommentTarget, marker: string, body: string): Promise<CommentOutcome> {
  const { owner, repo, issueNumber } = target;
  const login = await identity(octokit);
  const comments = await octokit.paginate(octokit.rest.issues.listComments, { owner, repo, issue_number: issueNumber, per_page: 100 });
  // Ours: it starts with the marker, and was written by this user, or (when the token cannot say who
  // it is) by a bot, as github-actions[bot] and every GitHub App are; never a person's comment.
  const mine = comments.find(
    (comment) => comment.body?.split('\n', 1)[0] === marker && (login ? comment.user?.login === login : comment.user?.type === 'Bot'),
  );
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
