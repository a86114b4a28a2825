// PostgreSQL cannot store NUL (U+0000) in text or jsonb. Text that comes from outside (an upstream's
// tool definition or error message, an agent's tool name) must not make a write fail: an upstream
// could use that to keep a changed definition from being recorded (hiding its drift) or a failed
// health check from being stored (a dead server showing online). NUL is stored as U+FFFD instead,
// in string values and keys alike — for definitions, before any comparison with stored versions.
const NUL = '\u0000';
const REPLACEMENT = '\ufffd';

export function storableText(text: string): string {
  return text.includes(NUL) ? text.replaceAll(NUL, REPLACEMENT) : text;
}

export function storableJson<T>(value: T): T {
  if (typeof value === 'string') return storableText(value) as T;
  if (Array.isArray(value)) return value.map(storableJson) as T;
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [storableText(key), storableJson(item)])) as T;
  }
  return value;
}
