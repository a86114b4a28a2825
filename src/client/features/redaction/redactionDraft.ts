import type { CustomPattern, RedactionPath, RedactionSettingsDto } from '../../../contract/redaction';

// The settings as the Redaction tab edits them before saving (and sends to "test a sample").
export interface RedactionDraft {
  rules: { id: string; enabled: boolean; hash: boolean }[];
  customPatterns: CustomPattern[];
  paths: RedactionPath[];
  allowlist: string[];
}

export function draftOf(settings: RedactionSettingsDto): RedactionDraft {
  return {
    rules: settings.rules.map(({ id, enabled, hash }) => ({ id, enabled, hash })),
    customPatterns: settings.customPatterns,
    paths: settings.paths,
    allowlist: settings.allowlist,
  };
}

/** What is sent: empty rows (a pattern or path being typed) are left out. */
export function bodyOf(draft: RedactionDraft): RedactionDraft {
  return {
    rules: draft.rules,
    customPatterns: draft.customPatterns.filter((p) => p.id.trim() !== '' || p.pattern !== ''),
    paths: draft.paths
      .filter((p) => p.path.trim() !== '')
      .map((p) => ({ path: p.path.trim(), ...(p.tool?.trim() ? { tool: p.tool.trim() } : {}) })),
    allowlist: draft.allowlist.map((value) => value.trim()).filter((value) => value !== ''),
  };
}
