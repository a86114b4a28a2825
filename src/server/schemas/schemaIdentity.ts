import type { SchemaKind } from '../../contract/schemas';

// The field that names an item of each kind in the MCP lists: a tool or prompt by its name, a
// resource by its URI, a template by its URI template. A schema's `name` is that value, which is
// how a definition seen later (discovery, a proxied tools/list) finds its schema.
const IDENTITY_FIELD: Record<SchemaKind, 'name' | 'uri' | 'uriTemplate'> = {
  tool: 'name',
  prompt: 'name',
  resource: 'uri',
  resource_template: 'uriTemplate',
};

export function identityFieldOf(kind: SchemaKind): 'name' | 'uri' | 'uriTemplate' {
  return IDENTITY_FIELD[kind];
}

/** The identity of a listed item, or undefined when it has none (such an item is skipped). */
export function identityOf(kind: SchemaKind, definition: Record<string, unknown>): string | undefined {
  const value = definition[IDENTITY_FIELD[kind]];
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}
