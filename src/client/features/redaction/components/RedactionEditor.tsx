import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { RedactionSettingsDto } from '../../../../contract/redaction';
import type { WorkspaceDto } from '../../../../contract/workspaces';
import { errorMessage } from '../../../api/apiError';
import { useToast } from '../../../components/toast';
import { useUpdateRedactionSettingsMutation } from '../redactionApi';
import { bodyOf, draftOf, type RedactionDraft } from '../redactionDraft';
import { CustomPatternsEditor } from './CustomPatternsEditor';
import { RedactionPathsEditor } from './RedactionPathsEditor';
import { RedactionRulesList } from './RedactionRulesList';
import { RedactionSampleBox } from './RedactionSampleBox';

/**
 * The Redaction tab's form over the saved settings (RedactionTab remounts it when they change):
 * rules, custom patterns, paths, allowlist, and the sample box trying the settings on screen.
 */
export function RedactionEditor({ workspace, settings }: { workspace: WorkspaceDto; settings: RedactionSettingsDto }) {
  const { toast } = useToast();
  const [update, state] = useUpdateRedactionSettingsMutation();
  const [draft, setDraft] = useState<RedactionDraft>(() => draftOf(settings));
  const [problem, setProblem] = useState<string | null>(null);
  const canEdit = workspace.role === 'owner' || workspace.role === 'admin';

  const save = async () => {
    setProblem(null);
    try {
      await update({ workspaceId: workspace.id, body: bodyOf(draft) }).unwrap();
      toast({ title: 'Redaction rules saved', description: 'They apply to messages recorded from now on.' });
    } catch (caught) {
      setProblem(errorMessage(caught));
    }
  };

  const edit = (change: Partial<RedactionDraft>) => setDraft({ ...draft, ...change });
  return (
    <Stack spacing={3}>
      <Card>
        <CardContent>
          <Typography variant="h6" component="h2">
            Redaction before storage
          </Typography>
          <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
            Matches are replaced with a placeholder such as [REDACTED:github-pat] before anything is journaled or
            stored; agents and tool servers still get the exact traffic. Changes apply to new messages only.
          </Typography>
          {!canEdit && (
            <Alert severity="info" sx={{ mb: 2 }}>
              Only workspace owners and admins can change redaction rules.
            </Alert>
          )}
          <RedactionRulesList
            rules={settings.rules}
            draft={draft.rules}
            onChange={(rules) => edit({ rules })}
            disabled={!canEdit}
          />
        </CardContent>
      </Card>
      <Card>
        <CardContent>
          <Stack spacing={2}>
            <Typography variant="h6" component="h2">
              Custom patterns
            </Typography>
            <CustomPatternsEditor
              patterns={draft.customPatterns}
              onChange={(customPatterns) => edit({ customPatterns })}
              disabled={!canEdit}
            />
            <Typography variant="h6" component="h2">
              JSON paths
            </Typography>
            <RedactionPathsEditor paths={draft.paths} onChange={(paths) => edit({ paths })} disabled={!canEdit} />
            <TextField
              label="Allowlist"
              multiline
              minRows={2}
              value={draft.allowlist.join('\n')}
              onChange={(e) => edit({ allowlist: e.target.value.split('\n') })}
              disabled={!canEdit}
              helperText="Exact values never redacted, one per line (a published test key, a public address)"
            />
            {problem && <Alert severity="error">{problem}</Alert>}
            {canEdit && (
              <Stack direction="row">
                <Button variant="contained" onClick={() => void save()} disabled={state.isLoading}>
                  Save redaction rules
                </Button>
              </Stack>
            )}
          </Stack>
        </CardContent>
      </Card>
      <Card>
        <CardContent>
          <Typography variant="h6" component="h2" sx={{ mb: 2 }}>
            Test a sample
          </Typography>
          <RedactionSampleBox workspaceId={workspace.id} draft={draft} />
        </CardContent>
      </Card>
    </Stack>
  );
}
