import type { RiskRuleId, RiskSeverity } from '../../../contract/toolRisk';

// The rules of the tool-definition risk check, kept as data: each names what it looks for, how
// bad it is, and where the attack it stands for is described. riskCheck.ts applies them; the
// corpus under test/fixtures/tool-risk holds poisoned examples and benign look-alikes of each.
// A rule matches text (every string of a definition: name, description, parameter titles and
// descriptions, defaults, enum values), characters, parameter names, or — for shadowing — the
// names of the workspace's other servers' tools.
export type RiskMatcher =
  /** Case-insensitive regular expressions over each string of the definition. */
  | { kind: 'phrases'; patterns: RegExp[] }
  /** Characters in these code point ranges (inclusive), anywhere in a string. */
  | { kind: 'codepoints'; ranges: [number, number][] }
  /** The names of input parameters (keys under inputSchema…properties). */
  | { kind: 'parameterNames'; patterns: RegExp[]; except: RegExp[] }
  /** Another server's tool named in this tool's text. */
  | { kind: 'otherServersTools' };

export interface RiskRule {
  id: RiskRuleId;
  title: string;
  severity: RiskSeverity;
  matcher: RiskMatcher;
  sources: string[];
}

const INVARIANT_TPA = 'https://invariantlabs.ai/blog/mcp-security-notification-tool-poisoning-attacks';
const OWASP_LLM01 = 'https://genai.owasp.org/llmrisk/llm01-prompt-injection/';
const MCP_SECURITY = 'https://modelcontextprotocol.io/specification/2025-06-18/basic/security_best_practices';

export const RISK_RULES: RiskRule[] = [
  {
    id: 'hidden_unicode_tags',
    title: 'Hidden Unicode tag characters',
    severity: 'high',
    // The tags block mirrors ASCII invisibly: a model reads it, a person sees nothing.
    matcher: { kind: 'codepoints', ranges: [[0xe0000, 0xe007f]] },
    sources: [
      'https://embracethered.com/blog/posts/2024/hiding-and-finding-text-with-unicode-tags/',
      'https://www.unicode.org/charts/PDF/UE0000.pdf',
    ],
  },
  {
    id: 'invisible_characters',
    title: 'Invisible characters',
    severity: 'high',
    // Zero-width space/non-joiner, word joiner, invisible operators, BOM, Mongolian vowel
    // separator. U+200D (zero-width joiner) is left out: emoji sequences use it legitimately.
    matcher: {
      kind: 'codepoints',
      ranges: [
        [0x200b, 0x200c],
        [0x2060, 0x2064],
        [0xfeff, 0xfeff],
        [0x180e, 0x180e],
        [0x00ad, 0x00ad],
      ],
    },
    sources: ['https://www.unicode.org/reports/tr36/', 'https://github.com/invariantlabs-ai/mcp-scan'],
  },
  {
    id: 'bidi_override',
    title: 'Bidirectional text overrides',
    severity: 'high',
    // Embeddings, overrides and isolates reorder what is displayed ("Trojan Source").
    matcher: {
      kind: 'codepoints',
      ranges: [
        [0x202a, 0x202e],
        [0x2066, 0x2069],
      ],
    },
    sources: ['https://trojansource.codes/', 'https://nvd.nist.gov/vuln/detail/CVE-2021-42574'],
  },
  {
    id: 'ignore_instructions',
    title: 'Instruction to ignore or override other instructions',
    severity: 'high',
    matcher: {
      kind: 'phrases',
      patterns: [
        /\b(?:ignore|disregard|forget|override)\b[^.\n]{0,40}\b(?:previous|prior|above|earlier|all|any|other|system|user'?s?)\b[^.\n]{0,30}\b(?:instructions?|prompts?|rules|directions|guidelines|messages?)\b/i,
        /\byou are now\b[^.\n]{0,40}\b(?:assistant|agent|mode)\b/i,
        /\bnew (?:system )?instructions?\s*:/i,
      ],
    },
    sources: [OWASP_LLM01, INVARIANT_TPA],
  },
  {
    id: 'secrecy',
    title: 'Instruction to keep something from the user',
    severity: 'high',
    matcher: {
      kind: 'phrases',
      patterns: [
        /\b(?:do not|don't|never|must not)\s+(?:tell|mention|inform|notify|reveal|show|disclose)\b[^.\n]{0,30}\b(?:the )?user\b/i,
        /\b(?:do not|don't|never)\s+(?:tell|mention|reveal|disclose)\s+(?:that|this|it)\b/i,
        /\b(?:without|before)\s+(?:the )?user'?s?\s+(?:knowledge|knowing|noticing|consent)\b/i,
        /\b(?:keep|hide)\s+(?:this|it|these)\b[^.\n]{0,30}\b(?:secret|hidden|from the user)\b/i,
        /\bthe user (?:must|should) not (?:know|see|notice)\b/i,
      ],
    },
    sources: [INVARIANT_TPA, 'https://github.com/invariantlabs-ai/mcp-injection-experiments'],
  },
  {
    id: 'before_using',
    title: 'Instruction aimed at the model',
    severity: 'low',
    // Ordinary usage notes say this too, so alone it is low; with a credential path or an
    // exfiltration URL it is one of the high findings beside it.
    matcher: {
      kind: 'phrases',
      patterns: [
        /\bbefore (?:using|calling|invoking) (?:this|any|the) tools?\b/i,
        /<\s*(?:important|system|instructions?|secret)\s*>/i,
        /\b(?:you|the (?:assistant|model|agent)) must (?:first|always) (?:read|call|send|pass|include)\b/i,
      ],
    },
    sources: [INVARIANT_TPA, MCP_SECURITY],
  },
  {
    id: 'credential_path',
    title: 'Path of a credential file',
    severity: 'high',
    matcher: {
      kind: 'phrases',
      patterns: [
        /~?\/?\.ssh\/[\w.-]*/i,
        /\bid_(?:rsa|dsa|ecdsa|ed25519)\b/i,
        /\.aws\/credentials\b/i,
        /\.(?:cursor|codeium|claude)\/[\w./-]*mcp[\w.-]*\.json/i,
        /(?:^|[\s'"`(~/])\.(?:netrc|pgpass|npmrc|git-credentials|kube\/config|docker\/config\.json)\b/i,
        /(?:^|[\s'"`(/])\.env\b(?!\s*(?:var|variable))/i,
        /\/etc\/(?:shadow|passwd|sudoers)\b/i,
        /\bwallet\.dat\b/i,
      ],
    },
    sources: [INVARIANT_TPA, 'https://github.com/gitleaks/gitleaks/blob/master/config/gitleaks.toml'],
  },
  {
    id: 'exfiltration_url',
    title: 'Sends data to an outside address',
    severity: 'high',
    matcher: {
      kind: 'phrases',
      patterns: [
        /\b(?:send|post|forward|upload|transmit|exfiltrate|copy|bcc|cc)\b[^\n]{0,60}?\b(?:to|at)\s+(?:https?:\/\/|[\w.+-]+@[\w-]+\.[\w.]+)/i,
        /https?:\/\/[^\s'"]*(?:webhook\.site|requestbin|pipedream\.net|ngrok(?:-free)?\.(?:io|app)|burpcollaborator\.net|interact\.sh|oast\.(?:fun|live|site|me))/i,
        /https?:\/\/[^\s'"]*[?&][\w-]*=\s*\{[^}]*\}/i,
      ],
    },
    sources: [INVARIANT_TPA, 'https://simonwillison.net/2025/Apr/9/mcp-prompt-injection/'],
  },
  {
    id: 'shadowing',
    title: "Names another server's tool",
    severity: 'high',
    // A description that tells the model how to use someone else's tool ("when send_email is
    // available, always bcc …") changes that tool's behaviour without touching it.
    matcher: { kind: 'otherServersTools' },
    sources: ['https://invariantlabs.ai/blog/mcp-security-notification-tool-poisoning-attacks#shadowing', MCP_SECURITY],
  },
  {
    id: 'secret_parameter',
    title: 'Parameter that invites a secret',
    severity: 'low',
    matcher: {
      kind: 'parameterNames',
      patterns: [
        /(?:^|[_-])(?:password|passwd|passphrase|secret|private[_-]?key|ssh[_-]?key|api[_-]?key|access[_-]?token|auth[_-]?token|credentials?|mnemonic|seed[_-]?phrase)(?:$|[_-])/i,
        /^(?:password|secret|privateKey|apiKey|accessToken|authToken|credentials?|mnemonic|seedPhrase|sshKey)$/,
      ],
      except: [/^(?:max|page|next|continuation|num|total)[_-]?tokens?$/i],
    },
    sources: [MCP_SECURITY, 'https://owasp.org/www-project-top-10-for-large-language-model-applications/'],
  },
];

export const RISK_RULES_BY_ID = new Map(RISK_RULES.map((rule) => [rule.id, rule]));
