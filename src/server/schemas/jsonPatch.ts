import type { JsonPatchOperation } from '../../contract/schemas';

// A small RFC 6902 generator (and applier, to prove patches round-trip). Definitions are JSON
// from tool servers, so values are plain objects, arrays and scalars. The diff favours patches
// a person can read in the schema studio: objects are compared key by key, arrays index by index
// with the tail added or removed; no move/copy detection (always correct, sometimes longer).
type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** RFC 6901: "~" → "~0", "/" → "~1". */
export function escapePointerToken(token: string): string {
  return token.replace(/~/g, '~0').replace(/\//g, '~1');
}

function unescapePointerToken(token: string): string {
  return token.replace(/~1/g, '/').replace(/~0/g, '~');
}

// A key may hold undefined when the value was built in code rather than parsed: such keys count as absent.
function isObject(value: unknown): value is { [key: string]: Json | undefined } {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Structural equality of JSON values; object key order does not matter. */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) {
    return Array.isArray(b) && a.length === b.length && a.every((item, i) => jsonEqual(item, b[i]));
  }
  if (isObject(a)) {
    if (!isObject(b)) return false;
    const aKeys = Object.keys(a).filter((k) => a[k] !== undefined);
    const bKeys = Object.keys(b).filter((k) => b[k] !== undefined);
    return (
      aKeys.length === bKeys.length &&
      aKeys.every((k) => Object.prototype.hasOwnProperty.call(b, k) && jsonEqual(a[k], b[k]))
    );
  }
  return false;
}

/** The operations that turn `from` into `to` (empty when they are equal). */
export function createJsonPatch(from: unknown, to: unknown): JsonPatchOperation[] {
  const operations: JsonPatchOperation[] = [];
  diffInto(operations, '', from, to);
  return operations;
}

function diffInto(out: JsonPatchOperation[], path: string, from: unknown, to: unknown): void {
  if (jsonEqual(from, to)) return;
  if (isObject(from) && isObject(to)) {
    for (const key of Object.keys(from)) {
      if (from[key] === undefined) continue;
      if (!Object.prototype.hasOwnProperty.call(to, key) || to[key] === undefined)
        out.push({ op: 'remove', path: `${path}/${escapePointerToken(key)}` });
    }
    for (const key of Object.keys(to)) {
      if (to[key] === undefined) continue;
      const child = `${path}/${escapePointerToken(key)}`;
      if (!Object.prototype.hasOwnProperty.call(from, key) || from[key] === undefined)
        out.push({ op: 'add', path: child, value: clone(to[key]) });
      else diffInto(out, child, from[key], to[key]);
    }
    return;
  }
  if (Array.isArray(from) && Array.isArray(to)) {
    const common = Math.min(from.length, to.length);
    for (let i = 0; i < common; i++) diffInto(out, `${path}/${i}`, from[i], to[i]);
    // Remove from the end so earlier indexes stay valid while the patch is applied.
    for (let i = from.length - 1; i >= to.length; i--) out.push({ op: 'remove', path: `${path}/${i}` });
    for (let i = from.length; i < to.length; i++) out.push({ op: 'add', path: `${path}/-`, value: clone(to[i]) });
    return;
  }
  out.push({ op: 'replace', path, value: clone(to) });
}

function clone<T>(value: T): T {
  return value === undefined ? value : (JSON.parse(JSON.stringify(value)) as T);
}

export class JsonPatchError extends Error {}

/** Applies an RFC 6902 patch to a copy of `document` (the input is never changed). */
export function applyJsonPatch(document: unknown, operations: readonly JsonPatchOperation[]): unknown {
  let root = clone(document) as Json;
  for (const operation of operations) {
    switch (operation.op) {
      case 'add':
        root = setAt(root, operation.path, clone(operation.value) as Json, 'add');
        break;
      case 'replace':
        getAt(root, operation.path);
        root = setAt(root, operation.path, clone(operation.value) as Json, 'replace');
        break;
      case 'remove':
        root = removeAt(root, operation.path);
        break;
      case 'move': {
        const value = getAt(root, operation.from);
        root = setAt(removeAt(root, operation.from), operation.path, value, 'add');
        break;
      }
      case 'copy':
        root = setAt(root, operation.path, clone(getAt(root, operation.from)), 'add');
        break;
      case 'test':
        if (!jsonEqual(getAt(root, operation.path), operation.value))
          throw new JsonPatchError(`test failed at ${operation.path}`);
        break;
    }
  }
  return root;
}

function parsePointer(pointer: string): string[] {
  if (pointer === '') return [];
  if (!pointer.startsWith('/')) throw new JsonPatchError(`Invalid JSON pointer: ${pointer}`);
  return pointer.slice(1).split('/').map(unescapePointerToken);
}

function arrayIndex(array: Json[], token: string, forInsert: boolean): number {
  if (forInsert && token === '-') return array.length;
  if (!/^(0|[1-9]\d*)$/.test(token)) throw new JsonPatchError(`Invalid array index: ${token}`);
  const index = Number(token);
  if (index > array.length || (!forInsert && index === array.length))
    throw new JsonPatchError(`Array index out of range: ${token}`);
  return index;
}

function getAt(root: Json, pointer: string): Json {
  let node: Json = root;
  for (const token of parsePointer(pointer)) {
    if (Array.isArray(node)) node = node[arrayIndex(node, token, false)];
    else if (isObject(node) && Object.prototype.hasOwnProperty.call(node, token)) node = node[token];
    else throw new JsonPatchError(`No value at ${pointer}`);
  }
  return node;
}

function parentOf(root: Json, pointer: string): { parent: Json; last: string } {
  const tokens = parsePointer(pointer);
  const last = tokens.pop() as string;
  const parentPointer = tokens.map((t) => `/${escapePointerToken(t)}`).join('');
  return { parent: getAt(root, parentPointer), last };
}

function setAt(root: Json, pointer: string, value: Json, mode: 'add' | 'replace'): Json {
  if (pointer === '') return value;
  const { parent, last } = parentOf(root, pointer);
  if (Array.isArray(parent)) {
    const index = arrayIndex(parent, last, mode === 'add');
    if (mode === 'add') parent.splice(index, 0, value);
    else parent[index] = value;
  } else if (isObject(parent)) {
    parent[last] = value;
  } else {
    throw new JsonPatchError(`Cannot set a value inside a scalar at ${pointer}`);
  }
  return root;
}

function removeAt(root: Json, pointer: string): Json {
  if (pointer === '') throw new JsonPatchError('Cannot remove the document root');
  const { parent, last } = parentOf(root, pointer);
  if (Array.isArray(parent)) parent.splice(arrayIndex(parent, last, false), 1);
  else if (isObject(parent) && Object.prototype.hasOwnProperty.call(parent, last)) Reflect.deleteProperty(parent, last);
  else throw new JsonPatchError(`No value at ${pointer}`);
  return root;
}
