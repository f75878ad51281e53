/*
 * Secrets out of error texts. An endpoint (or a proxy before it) may echo what it was sent, the
 * Authorization header among it, and its error becomes a record's `error` (which users upload), a
 * warning and a log line. Every error text from a model goes through a redactor before it becomes any
 * of those (runSuite applies the adapter's).
 */

const REDACTED = '[redacted]';

/** Credentials by their look, whatever their value: redacted even when the adapter did not know them. */
const CREDENTIAL_PATTERNS: ReadonlyArray<[RegExp, string]> = [
  // An Authorization header's value, as text or JSON ("authorization": "Bearer ..."), up to its end.
  [/(authorization\\?["']?\s*[:=]\s*\\?["']?)[^"'\\\r\n,;)\]}]+/gi, `$1${REDACTED}`],
  // A token after its scheme, wherever it is quoted (Basic's is base64: "basic" alone is a word).
  [/\b(bearer)(\s+)[\w.~+/=-]+/gi, `$1$2${REDACTED}`],
  [/\b(basic)(\s+)[a-z\d+/]{8,}={0,2}/gi, `$1$2${REDACTED}`],
  // The user:pass@ of a URL.
  [/\b([a-z][a-z\d+.-]*:\/\/)[^\s/?#@]+@/gi, `$1${REDACTED}@`],
  // OpenAI-style API keys.
  [/\bsk-[\w-]{8,}/g, REDACTED],
];

/** Shorter strings are not redacted as known secrets: they would take words out of messages (the patterns still apply). */
const MIN_SECRET_LENGTH = 4;

/** A function that replaces each of `secrets`, and anything that looks like a credential, with "[redacted]". */
export function redactor(secrets: ReadonlyArray<string | undefined>): (text: string) => string {
  const known = [...new Set(secrets)]
    .filter((secret): secret is string => secret !== undefined && secret.length >= MIN_SECRET_LENGTH)
    .sort((a, b) => b.length - a.length); // a secret that contains another goes first
  return (text) => {
    // The patterns first: a header's whole value goes, not what is left of it around a known secret.
    let redacted = text;
    for (const [pattern, replacement] of CREDENTIAL_PATTERNS) redacted = redacted.replace(pattern, replacement);
    for (const secret of known) redacted = redacted.split(secret).join(REDACTED);
    return redacted;
  };
}

/**
 * The secrets of a connection to an endpoint: its API key, and the password and user:password of its
 * URL, as written, decoded, and as the Basic credentials they make.
 */
export function connectionSecrets(apiKey: string | undefined, baseUrl: string | undefined): string[] {
  const secrets = [apiKey];
  let url: URL | undefined;
  try {
    url = baseUrl === undefined ? undefined : new URL(baseUrl);
  } catch {
    url = undefined;
  }
  if (url && (url.username || url.password)) {
    const decode = (part: string) => {
      try {
        return decodeURIComponent(part);
      } catch {
        return part;
      }
    };
    const userinfo = `${decode(url.username)}:${decode(url.password)}`;
    secrets.push(url.password, decode(url.password), userinfo);
    secrets.push(`${url.username}:${url.password}`, Buffer.from(userinfo).toString('base64'));
  }
  return secrets.filter((secret): secret is string => secret !== undefined && secret !== '');
}
