import type { RedactionSettingsInput } from '../../../contract/redaction';
import type { Database } from '../../db/database';
import { loadRedactionSettings, type StoredRedactionSettings } from '../../data/redaction/store';
import { compileRules, DEFAULT_SETTINGS, type CompiledRules } from './compiledRules';
import type { OffThreadRedaction } from './redactionThread';
import { Redactor, workspaceHashKey } from './redactor';

// Every workspace's redactor, in memory: the recorder asks for one per message, synchronously, on
// the proxy's path (and sends a large message with its redactor's settings to `offThread`). All saved settings are loaded before the proxy serves; a workspace without
// any has the defaults (compiled once, shared). A change reloads that workspace here and — through
// PostgreSQL NOTIFY — on every other instance, as schema pins do (toolsListRewriter.ts).

export const REDACTION_CHANNEL = 'toolscope_redaction';

interface Entry {
  stored: StoredRedactionSettings | undefined;
  redactor: Redactor;
}

export class WorkspaceRedaction {
  private readonly saved = new Map<string, StoredRedactionSettings>();
  private readonly redactors = new Map<string, Entry>();
  private readonly defaults: CompiledRules = compileRules(DEFAULT_SETTINGS);
  private unlisten: (() => Promise<void>) | undefined;

  /**
   * @param offThread where the recorder redacts large messages (redactionThread.ts); absent: all inline.
   */
  constructor(
    private readonly db: Database,
    private readonly secret: string,
    private readonly onError: (error: unknown) => void = () => undefined,
    public offThread?: OffThreadRedaction,
  ) {}

  async start(): Promise<void> {
    for (const stored of await loadRedactionSettings(this.db)) this.saved.set(stored.workspaceId, stored);
    if (this.db.engine === 'postgres')
      this.unlisten = await this.db.listen(REDACTION_CHANNEL, (workspaceId) => {
        this.reload(workspaceId).catch(this.onError);
      });
  }

  async stop(): Promise<void> {
    await this.unlisten?.();
  }

  /** The workspace's redactor (its saved settings, or the defaults). */
  forWorkspace(workspaceId: string): Redactor {
    const stored = this.saved.get(workspaceId);
    const cached = this.redactors.get(workspaceId);
    if (cached && cached.stored === stored) return cached.redactor;
    const rules = stored ? compileRules(stored.settings) : this.defaults;
    const redactor = new Redactor(rules, workspaceHashKey(this.secret, workspaceId));
    this.redactors.set(workspaceId, { stored, redactor });
    return redactor;
  }

  /** A redactor for settings not saved (the "test a sample" box tries edits before saving them). */
  trial(workspaceId: string, settings: RedactionSettingsInput): Redactor {
    return new Redactor(compileRules(settings), workspaceHashKey(this.secret, workspaceId));
  }

  /** What the workspace saved (undefined: it runs the defaults). */
  settingsOf(workspaceId: string): StoredRedactionSettings | undefined {
    return this.saved.get(workspaceId);
  }

  /** After this instance saved a workspace's settings: reload here, and tell the other instances. */
  async changed(workspaceId: string): Promise<void> {
    await this.reload(workspaceId);
    if (this.db.engine === 'postgres') await this.db.notify(REDACTION_CHANNEL, workspaceId);
  }

  private async reload(workspaceId: string): Promise<void> {
    const stored = (await loadRedactionSettings(this.db, workspaceId)).at(0);
    if (stored) this.saved.set(workspaceId, stored);
    else this.saved.delete(workspaceId);
  }
}
