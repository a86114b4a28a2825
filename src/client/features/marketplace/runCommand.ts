import {
  runKindOf,
  type CatalogArgument,
  type CatalogPackage,
  type CatalogRemote,
} from '../../../contract/marketplace';

// Turning a server.json package into the command a person runs, and a remote into the URL and
// headers Toolscope registers. Placeholders (<name>) stand where a value must be supplied.
const placeholder = (name: string) => `<${name}>`;

function quoted(text: string): string {
  return /^[\w@%+=:,./<>-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}

function argumentText(arg: CatalogArgument): string[] {
  const value = arg.value ?? (arg.default ? arg.default : placeholder(arg.valueHint ?? arg.name ?? 'value'));
  if (arg.type === 'named') return arg.name ? [arg.name, value] : [];
  return [value];
}

/** The shell command that runs the package (npx, uvx or docker), env vars as placeholders. */
export function packageCommand(pkg: CatalogPackage): string {
  const kind = runKindOf(pkg);
  const env = pkg.environmentVariables ?? [];
  const runtimeArgs = (pkg.runtimeArguments ?? []).flatMap(argumentText);
  const packageArgs = (pkg.packageArguments ?? []).flatMap(argumentText);
  if (kind === 'docker') {
    const image = pkg.version && !pkg.identifier.includes(':') ? `${pkg.identifier}:${pkg.version}` : pkg.identifier;
    const envFlags = env.flatMap((e) => ['-e', `${e.name}=${placeholder(e.name)}`]);
    return ['docker', 'run', '-i', '--rm', ...runtimeArgs, ...envFlags, image, ...packageArgs].map(quoted).join(' ');
  }
  const envPrefix = env
    .filter((e) => e.isRequired !== false || e.isSecret)
    .map((e) => `${e.name}=${placeholder(e.name)}`);
  if (kind === 'pypi') {
    const spec = pkg.version ? `${pkg.identifier}==${pkg.version}` : pkg.identifier;
    return [...envPrefix, 'uvx', ...runtimeArgs, spec, ...packageArgs].map(quoted).join(' ');
  }
  const spec = pkg.version ? `${pkg.identifier}@${pkg.version}` : pkg.identifier;
  return [...envPrefix, 'npx', '-y', ...runtimeArgs, spec, ...packageArgs].map(quoted).join(' ');
}

/** "{name}" references in a template, in order of appearance. */
export function templateVariables(template: string): string[] {
  return [...new Set([...template.matchAll(/\{([A-Za-z0-9_.-]+)\}/g)].map((m) => m[1]))];
}

export function fillTemplate(template: string, values: Record<string, string>): string {
  return template.replace(/\{([A-Za-z0-9_.-]+)\}/g, (whole, name: string) => values[name] ?? whole);
}

/** The inputs a remote needs: URL variables and header values (a header without a value template is one input). */
export interface RemoteInput {
  key: string;
  label: string;
  description: string;
  required: boolean;
  secret: boolean;
}

export function remoteInputs(remote: CatalogRemote): RemoteInput[] {
  const inputs: RemoteInput[] = [];
  for (const name of templateVariables(remote.url)) {
    const v = remote.variables?.[name];
    inputs.push({
      key: `url:${name}`,
      label: name,
      description: v?.description ?? '',
      required: v?.isRequired !== false,
      secret: Boolean(v?.isSecret),
    });
  }
  for (const header of remote.headers ?? []) {
    if (header.value && templateVariables(header.value).length > 0) {
      for (const name of templateVariables(header.value)) {
        const v = header.variables?.[name];
        inputs.push({
          key: `header:${header.name}:${name}`,
          label: `${header.name}: ${name}`,
          description: v?.description ?? header.description ?? '',
          required: header.isRequired !== false,
          secret: Boolean(v?.isSecret ?? header.isSecret),
        });
      }
    } else if (!header.value) {
      inputs.push({
        key: `header:${header.name}`,
        label: header.name,
        description: header.description ?? '',
        required: Boolean(header.isRequired),
        secret: Boolean(header.isSecret),
      });
    }
  }
  return inputs;
}

/** The URL and headers to register, from the remote and the values entered (empty optional headers are left out). */
export function resolveRemote(
  remote: CatalogRemote,
  values: Partial<Record<string, string>>,
): { url: string; headers: Record<string, string> } {
  const urlValues = Object.fromEntries(
    templateVariables(remote.url).map((name) => [name, values[`url:${name}`] ?? '']),
  );
  const headers: Record<string, string> = {};
  for (const header of remote.headers ?? []) {
    if (header.value) {
      const names = templateVariables(header.value);
      const filled = Object.fromEntries(names.map((name) => [name, values[`header:${header.name}:${name}`] ?? '']));
      if (names.length > 0 && names.every((name) => !filled[name])) continue;
      headers[header.name] = fillTemplate(header.value, filled);
    } else {
      const value = values[`header:${header.name}`];
      if (value) headers[header.name] = value;
    }
  }
  return { url: fillTemplate(remote.url, urlValues), headers };
}
