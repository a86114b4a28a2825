import path from 'node:path';

// Argument forms that make a launcher run code given on its command line rather than a package:
// refused in catalog mode (TOOLSCOPE_DEPLOYMENTS=catalog), where a deployment may run only what
// the marketplace names. Only the launcher's own options are read (those before the package or
// script): what follows belongs to the program.
const SHELLS = new Set(['sh', 'bash', 'dash', 'zsh', 'ksh', 'fish', 'csh', 'tcsh', 'busybox', 'env', 'xargs']);
const NODE_CODE = new Set(['-e', '--eval', '-p', '--print', '-']);
const NODE_MODULE_OPTIONS = new Set(['-r', '--require', '--import', '--loader', '--experimental-loader']);
const NPX_CODE = new Set(['-c', '--call']);
const PYTHON_CODE = new Set(['-c', '-']);

/** A readable description of the first code-running form in command + args, or null. */
export function shellCapableForm(command: string, args: string[]): string | null {
  const name = path.basename(command);
  if (SHELLS.has(name)) return `${name} (a shell)`;
  if (name === 'node' || name === 'nodejs' || name === 'bun' || name === 'deno') return nodeForm(name, args);
  if (name === 'npx' || name === 'npm' || name === 'pnpm' || name === 'yarn') {
    for (const arg of launcherOptions(args)) {
      const flag = arg.split('=')[0];
      if (NPX_CODE.has(flag)) return `${name} ${flag}`;
    }
    return null;
  }
  if (/^python[0-9.]*$/.test(name)) {
    for (const arg of launcherOptions(args)) {
      if (PYTHON_CODE.has(arg) || /^-[A-Za-z]*c/.test(arg)) return `${name} ${arg.startsWith('-c') ? '-c' : arg}`;
    }
  }
  return null;
}

function nodeForm(name: string, args: string[]): string | null {
  const options = launcherOptions(args);
  for (let i = 0; i < options.length; i += 1) {
    // `--flag=value` carries its value inline; `--flag value` in the next argument.
    const eq = options[i].indexOf('=');
    const flag = eq < 0 ? options[i] : options[i].slice(0, eq);
    const inline = eq < 0 ? undefined : options[i].slice(eq + 1);
    if (NODE_CODE.has(flag) || /^-[a-z]*[ep]$/.test(flag)) return `${name} ${flag}`;
    if (NODE_MODULE_OPTIONS.has(flag)) {
      const value = inline ?? args.at(i + 1) ?? '';
      // A module of an installed package is part of it; a path is code from anywhere.
      if (value.startsWith('/') || value.startsWith('.') || value.includes(':')) return `${name} ${flag} ${value}`;
    }
  }
  return null;
}

/** The launcher's own options: every argument up to the first that is not an option. */
function launcherOptions(args: string[]): string[] {
  const options: string[] = [];
  for (const arg of args) {
    if (arg === '--') break;
    if (!arg.startsWith('-')) {
      // A value of the previous option (`--require x`) is still an option's part, not the program.
      const previous = options[options.length - 1];
      if (previous && NODE_MODULE_OPTIONS.has(previous)) {
        options.push(arg);
        continue;
      }
      break;
    }
    options.push(arg);
  }
  return options;
}
