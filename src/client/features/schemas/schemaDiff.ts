import type { JsonPatchOperation, SchemaKind } from '../../../contract/schemas';

// Turns RFC 6902 patches into lines a person can read: which field changed, from what, to what.

export interface DiffLine {
  change: 'added' | 'removed' | 'changed' | 'moved' | 'copied' | 'tested';
  /** A readable field path: "inputSchema › properties › city". */
  field: string;
  before?: string;
  after?: string;
}

function decodeSegment(segment: string): string {
  return segment.replace(/~1/g, '/').replace(/~0/g, '~');
}

export function pointerSegments(pointer: string): string[] {
  return pointer === '' ? [] : pointer.split('/').slice(1).map(decodeSegment);
}

export function readableField(pointer: string): string {
  const segments = pointerSegments(pointer);
  return segments.length === 0 ? '(whole definition)' : segments.join(' › ');
}

/** The value at a JSON pointer, or undefined when the path does not exist. */
export function valueAt(document: unknown, pointer: string): unknown {
  let current: unknown = document;
  for (const segment of pointerSegments(pointer)) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string, unknown>)[segment];
  }
  return current;
}

const MAX_SHOWN = 240;

/** A short, single-line rendering of a JSON value. */
export function showValue(value: unknown): string {
  if (value === undefined) return '(none)';
  const text = typeof value === 'string' ? JSON.stringify(value) : JSON.stringify(value);
  return text.length > MAX_SHOWN ? `${text.slice(0, MAX_SHOWN - 1)}…` : text;
}

/** Each operation as a line; `previous` (the definition before the patch) supplies old values. */
export function describePatch(operations: JsonPatchOperation[], previous: unknown): DiffLine[] {
  return operations.map((op): DiffLine => {
    switch (op.op) {
      case 'add':
        return { change: 'added', field: readableField(op.path), after: showValue(op.value) };
      case 'remove':
        return { change: 'removed', field: readableField(op.path), before: showValue(valueAt(previous, op.path)) };
      case 'replace':
        return {
          change: 'changed',
          field: readableField(op.path),
          before: showValue(valueAt(previous, op.path)),
          after: showValue(op.value),
        };
      case 'move':
        return { change: 'moved', field: readableField(op.path), before: readableField(op.from) };
      case 'copy':
        return { change: 'copied', field: readableField(op.path), before: readableField(op.from) };
      case 'test':
        return { change: 'tested', field: readableField(op.path), after: showValue(op.value) };
    }
  });
}

/** The top-level fields of a definition a patch touches (what a drift alert highlights). */
export function changedTopLevelFields(operations: JsonPatchOperation[]): string[] {
  const fields = new Set<string>();
  for (const op of operations) {
    const first = pointerSegments(op.path).at(0);
    if (first !== undefined) fields.add(first);
  }
  return [...fields];
}

export const KIND_LABELS: Record<SchemaKind, string> = {
  tool: 'Tools',
  prompt: 'Prompts',
  resource: 'Resources',
  resource_template: 'Resource templates',
};

export const KIND_SINGULAR: Record<SchemaKind, string> = {
  tool: 'tool',
  prompt: 'prompt',
  resource: 'resource',
  resource_template: 'resource template',
};
