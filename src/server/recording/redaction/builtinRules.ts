import type { RedactionCategory } from '../../../contract/redaction';
import { CHECKS, type Check } from './checksums';
import gitleaks from './gitleaksRules.json';

// The built-in rules: a subset of gitleaks' (gitleaksRules.json, MIT, kept as data with its source
// and every adaptation noted) and Toolscope's own for what gitleaks does not cover in payloads
// (credentials in assignments and URLs, bearer tokens, secret-looking JSON keys) and for personal
// data. Every pattern is linear-time by construction: each repetition is bounded and no quantifier
// applies to a group that holds another (test/server/recording/redaction/linearTime.test.ts runs
// each on 4 MiB of near-matches). docs/security.md lists them.

/** A rule found by a pattern in any string of a message. */
export interface PatternRule {
  id: string;
  title: string;
  category: RedactionCategory;
  source: string;
  /** The pattern, global. When it has a capture group 1, that group is the value redacted. */
  regex: RegExp;
  /** Lowercase texts one of which the string must hold before the pattern runs (gitleaks' prefilter). */
  keywords: string[];
  check?: Check;
  /** A matched value this also matches stays (gitleaks' per-rule allowlist). */
  allow?: RegExp;
}

/** A rule on the value under a JSON key (a string value, whole). */
export interface KeyRule {
  id: string;
  title: string;
  category: RedactionCategory;
  source: string;
  /** Whether a JSON key names such a value. */
  key: (key: string) => boolean;
  /** Values with less Shannon entropy per character than this stay (ids, booleans in words, "none"). */
  minEntropy: number;
  minLength: number;
}

const GITLEAKS_SOURCE = `gitleaks ${gitleaks.commit.slice(0, 7)}`;
const TOOLSCOPE = 'Toolscope';

const TITLES: Record<string, string> = {
  'aws-access-token': 'AWS access key id',
  'github-pat': 'GitHub personal access token',
  'github-oauth': 'GitHub OAuth token',
  'github-app-token': 'GitHub app token',
  'github-refresh-token': 'GitHub refresh token',
  'github-fine-grained-pat': 'GitHub fine-grained token',
  'gitlab-pat-routable': 'GitLab routable token',
  'gitlab-pat': 'GitLab personal access token',
  'gitlab-ptt': 'GitLab pipeline trigger token',
  'gitlab-deploy-token': 'GitLab deploy token',
  'slack-bot-token': 'Slack bot token',
  'slack-user-token': 'Slack user token',
  'slack-app-token': 'Slack app token',
  'slack-legacy-token': 'Slack legacy token',
  'slack-webhook-url': 'Slack webhook URL',
  'stripe-access-token': 'Stripe secret or restricted key',
  'openai-api-key': 'OpenAI API key',
  'anthropic-admin-api-key': 'Anthropic admin key',
  'anthropic-api-key': 'Anthropic API key',
  'gcp-api-key': 'Google API key',
  'npm-access-token': 'npm access token',
  jwt: 'JSON Web Token',
  'private-key': 'Private key block',
};

interface GitleaksEntry {
  id: string;
  regex: string;
  keywords: string[];
  flags?: string;
  checksum?: string;
  allow?: string;
}

const gitleaksRules: PatternRule[] = (gitleaks.rules as GitleaksEntry[]).map((entry) => ({
  id: entry.id,
  title: TITLES[entry.id] ?? entry.id,
  category: 'secret',
  source: GITLEAKS_SOURCE,
  regex: new RegExp(entry.regex, `g${entry.flags ?? ''}`),
  keywords: entry.keywords.map((keyword) => keyword.toLowerCase()),
  ...(entry.checksum ? { check: CHECKS[entry.checksum] } : {}),
  ...(entry.allow ? { allow: new RegExp(entry.allow) } : {}),
}));

const ownSecretRules: PatternRule[] = [
  {
    id: 'password-assignment',
    title: 'Password or key in an assignment (password=…, api_key: …)',
    category: 'secret',
    source: TOOLSCOPE,
    regex:
      /\b(?:password|passwd|pwd|passphrase|secret|api[_-]?key|access[_-]?token|auth[_-]?token|client[_-]?secret)["']?[ \t]{0,8}[:=][ \t]{0,8}["']?([^\s"'&;,]{1,256})/gi,
    keywords: ['pass', 'pwd', 'secret', 'key', 'token'],
  },
  {
    id: 'connection-string-password',
    title: 'Password in a connection string or URL (scheme://user:password@host)',
    category: 'secret',
    source: TOOLSCOPE,
    regex: /\b[a-zA-Z][a-zA-Z0-9+.-]{1,30}:\/\/[^\s:/@"'<>]{0,256}:([^\s@/"'<>]{1,256})@/g,
    keywords: ['://'],
  },
  {
    id: 'bearer-token',
    title: 'Bearer token (Authorization: Bearer …)',
    category: 'secret',
    source: TOOLSCOPE,
    regex: /\b[Bb]earer[ \t]{1,4}([A-Za-z0-9._~+/-]{16,4096}={0,2})/g,
    keywords: ['bearer'],
  },
];

const personalRules: PatternRule[] = [
  {
    id: 'email-address',
    title: 'E-mail address',
    category: 'personal',
    source: TOOLSCOPE,
    regex: /(?<![A-Za-z0-9._%+-])[A-Za-z0-9._%+-]{1,64}@[A-Za-z0-9.-]{1,253}\.[A-Za-z]{2,24}\b/g,
    keywords: ['@'],
  },
  {
    id: 'phone-number',
    title: 'Phone number (international +…, or (555) 123-4567)',
    category: 'personal',
    source: TOOLSCOPE,
    regex:
      /(?<![\w+])(?:\+[1-9][0-9]{0,2}[ .-]?\(?[0-9]{1,4}\)?[ .-]?[0-9]{1,4}[ .-]?[0-9]{1,4}[ .-]?[0-9]{0,4}[ .-]?[0-9]{0,4}|\(?[0-9]{3}\)?[ .-][0-9]{3}[ .-][0-9]{4})(?![\w])/g,
    keywords: [],
    check: CHECKS['e164-length'],
  },
  {
    id: 'card-number',
    title: 'Payment card number (Luhn)',
    category: 'personal',
    source: TOOLSCOPE,
    regex: /(?<![0-9])[0-9][0-9 -]{11,22}[0-9](?![0-9])/g,
    keywords: [],
    check: CHECKS.luhn,
  },
  {
    id: 'iban',
    title: 'IBAN (mod 97)',
    category: 'personal',
    source: TOOLSCOPE,
    regex: /\b[A-Z]{2}[0-9]{2}[A-Z0-9 ]{11,40}[A-Z0-9]\b/g,
    keywords: [],
    check: CHECKS['iban-mod97'],
  },
  {
    id: 'ipv4-address',
    title: 'IPv4 address',
    category: 'personal',
    source: TOOLSCOPE,
    regex:
      /(?<![0-9.])(?:25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])\.(?:25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])\.(?:25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])\.(?:25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])(?![0-9]|\.[0-9])/g,
    keywords: ['.'],
  },
  {
    id: 'ipv6-address',
    title: 'IPv6 address',
    category: 'personal',
    source: TOOLSCOPE,
    regex: /(?<![0-9A-Fa-f:])[0-9A-Fa-f:]{2,39}(?![0-9A-Fa-f:])/g,
    keywords: ['::', ':'],
    check: CHECKS.ipv6,
  },
];

/** `d`: match indices, so a rule's group 1 (the value) is found exactly. */
const withIndices = (rule: PatternRule): PatternRule =>
  rule.regex.hasIndices ? rule : { ...rule, regex: new RegExp(rule.regex.source, `${rule.regex.flags}d`) };

export const PATTERN_RULES: readonly PatternRule[] = [...gitleaksRules, ...ownSecretRules, ...personalRules].map(
  withIndices,
);

const PASSWORD_WORDS = new Set(['password', 'passwd', 'pwd', 'pass', 'passphrase']);
const SECRET_WORDS = new Set([
  'secret',
  'token',
  'credential',
  'credentials',
  'auth',
  'authorization',
  'signature',
  'cookie',
  'apikey',
  'passcode',
]);
const SECRET_PAIRS = /apikey|accesskey|privatekey|secretkey|sessionkey|signingkey|clientsecret/;

/** A key's words in any case style: `dbPassword`, `db_password`, `DB-PASSWORD` → ['db', 'password']. */
function keyWords(key: string): string[] {
  return key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[\s_.-]+/);
}

function lastWord(key: string): string {
  return keyWords(key).at(-1) ?? '';
}

/** Most keys recur in every message (`type`, `text`, `name`): each is split into words once, not per message. */
const REMEMBERED_KEYS = 4096;

function remembered(test: (key: string) => boolean): (key: string) => boolean {
  const known = new Map<string, boolean>();
  return (key) => {
    let answer = known.get(key);
    if (answer === undefined) {
      answer = test(key);
      if (known.size >= REMEMBERED_KEYS) known.clear();
      known.set(key, answer);
    }
    return answer;
  };
}

export const KEY_RULES: readonly KeyRule[] = [
  {
    id: 'password-field',
    title: 'Value under a password key ("password", "db_pass", "passphrase")',
    category: 'secret',
    source: TOOLSCOPE,
    key: remembered((key) => PASSWORD_WORDS.has(lastWord(key))),
    minEntropy: 0,
    minLength: 1,
  },
  {
    id: 'secret-key-value',
    title: 'High-entropy value under a secret-looking key ("token", "apiKey", "client_secret")',
    category: 'secret',
    source: TOOLSCOPE,
    key: remembered((key) => {
      const words = keyWords(key);
      return words.some((word) => SECRET_WORDS.has(word)) || SECRET_PAIRS.test(words.join(''));
    }),
    minEntropy: 3,
    minLength: 12,
  },
];

export interface RuleInfo {
  id: string;
  title: string;
  category: RedactionCategory;
  source: string;
}

/** Every built-in rule, in the order they are listed (and applied). */
export const BUILTIN_RULES: readonly RuleInfo[] = [...PATTERN_RULES, ...KEY_RULES].map(
  ({ id, title, category, source }) => ({ id, title, category, source }),
);

/** On unless the workspace turned it off: secrets; off unless turned on: personal data. */
export function enabledByDefault(rule: RuleInfo): boolean {
  return rule.category === 'secret';
}
