// Workspace key values masked in a deployment's logs, the way CI systems mask secrets: every
// known value a program was given is replaced by •••• before a line is kept or sent. This catches
// a program that prints its configuration or a stack trace with a token in it; it cannot catch a
// program that prints a value transformed (base64, split), which is why the log and status of a
// deployment given workspace keys are readable by owners and admins only (docs/deployments.md).
export const MASK = '••••';
/** Shorter values would mask ordinary words and numbers all over the log. */
const MIN_MASKED_LENGTH = 4;

export function secretMasker(values: Iterable<string>): (text: string) => string {
  const secrets = [...new Set(values)]
    .filter((value) => value.length >= MIN_MASKED_LENGTH)
    // Longest first, so a value that contains another is masked whole.
    .sort((a, b) => b.length - a.length);
  if (secrets.length === 0) return (text) => text;
  return (text) => secrets.reduce((masked, secret) => masked.split(secret).join(MASK), text);
}
