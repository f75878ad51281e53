import type { getOctokit } from '@actions/github';

type Octokit = ReturnType<typeof getOctokit>;

/**
 * The hidden marker that finds a policy's comment again: one comment per policy. The name is escaped
 * so that it cannot end the HTML comment ("--", ">") and two names never share a marker; names without
 * "%", ">" or "--" appear as they are.
 */
export function commentMarker(policyName: string): string {
  return `<!-- evalgate:policy=${policyName.replace(/%/g, '%25').replace(/>/g, '%3E').replace(/--/g, '-%2D')} -->`;
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
    (comment) => comment.body?.startsWith(marker) && (login ? comment.user?.login === login : comment.user?.type === 'Bot'),
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
