/**
 * The copy of a site file that `fw deploy:check` hands to `nginx -t` (docs/deploy.md "deploy:check"): every
 * directive that makes nginx create or open a file for writing (`access_log`, `error_log`, `*_temp_path`,
 * `*_cache_path`, `pid`, `lock_file`) is pointed into the temporary folder of the test, and an `include` is not
 * followed: nginx would read the named file as configuration and quote its lines in its errors. Lines are kept
 * where they were, so that nginx's line numbers are the site's.
 */

export interface SandboxedSite {
  /** The site's text, rewritten. */
  readonly text: string;
  /** The arguments of the site's `include` directives, in order (none: nginx may be run). */
  readonly includes: string[];
}

interface Token {
  readonly text: string;
  readonly start: number;
  readonly end: number;
  /** `;`, `{` or `}`. */
  readonly punct: boolean;
}

/** nginx's tokens (ngx_conf_read_token): quoted strings, words (`${var}` inside a word), `;`, `{`, `}`; comments left out. */
export function nginxTokens(text: string): Token[] {
  const tokens: Token[] = [];
  let at = 0;
  while (at < text.length) {
    const ch = text[at]!;
    if (/\s/.test(ch)) {
      at++;
      continue;
    }
    if (ch === '#') {
      while (at < text.length && text[at] !== '\n') at++;
      continue;
    }
    if (ch === ';' || ch === '{' || ch === '}') {
      tokens.push({ text: ch, start: at, end: at + 1, punct: true });
      at++;
      continue;
    }
    const start = at;
    if (ch === '"' || ch === "'") {
      at++;
      while (at < text.length && text[at] !== ch) at += text[at] === '\\' ? 2 : 1;
      at = Math.min(at + 1, text.length);
      tokens.push({ text: text.slice(start + 1, at - 1).replace(/\\(.)/g, '$1'), start, end: at, punct: false });
      continue;
    }
    let variable = false;
    while (at < text.length) {
      const c = text[at]!;
      if (c === '\\') {
        at += 2;
        continue;
      }
      if (variable && c === '{') {
        while (at < text.length && text[at] !== '}') at++;
        at++;
        variable = false;
        continue;
      }
      if (/\s/.test(c) || c === ';' || c === '{' || c === '}') break;
      variable = c === '$';
      at++;
    }
    tokens.push({ text: text.slice(start, at), start, end: at, punct: false });
  }
  return tokens;
}

/** Log destinations that are not files of the machine. */
const NOT_A_FILE = /^(off|stderr|syslog:.*|memory:.*)$/;

/**
 * `text` with every path nginx would write pointed into `folder` (`folder/log-1`, `folder/path-2`…); `include`
 * directives are listed, and left in place for the caller to refuse.
 */
export function sandboxSite(text: string, folder: string): SandboxedSite {
  const tokens = nginxTokens(text);
  const edits: Array<{ start: number; end: number; text: string }> = [];
  const includes: string[] = [];
  let count = 0;
  const into = (token: Token, kind: string): void => {
    const lines = '\n'.repeat(text.slice(token.start, token.end).split('\n').length - 1);
    edits.push({ start: token.start, end: token.end, text: `"${folder}/${kind}-${++count}"${lines}` });
  };
  let directive: Token[] = [];
  for (const token of tokens) {
    if (!token.punct) {
      directive.push(token);
      continue;
    }
    const [name, first] = directive;
    directive = [];
    if (!name || !first) continue;
    const key = name.text.toLowerCase();
    if (key === 'include') includes.push(first.text);
    else if (key === 'access_log' || key === 'error_log') {
      if (!NOT_A_FILE.test(first.text)) into(first, 'log');
    } else if (/_temp_path$|_cache_path$/.test(key) || key === 'pid' || key === 'lock_file') into(first, 'path');
  }
  let out = text;
  for (const edit of edits.reverse()) out = out.slice(0, edit.start) + edit.text + out.slice(edit.end);
  return { text: out, includes };
}
