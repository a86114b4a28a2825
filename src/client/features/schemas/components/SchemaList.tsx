import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import ListSubheader from '@mui/material/ListSubheader';
import { SCHEMA_KINDS, type SchemaDto } from '../../../../contract/schemas';
import { KIND_LABELS } from '../schemaDiff';

/** Only what differs from a first version that nobody pinned. */
function versionNote(schema: SchemaDto): string | undefined {
  if (schema.pinnedVersion !== null) return `v${schema.currentVersion} · pinned v${schema.pinnedVersion}`;
  return schema.currentVersion > 1 ? `v${schema.currentVersion}` : undefined;
}

/** A server's schemas grouped by kind; drifted ones carry a badge. */
export function SchemaList({
  schemas,
  selectedId,
  onSelect,
}: {
  schemas: SchemaDto[];
  selectedId: string | null;
  onSelect: (id: string) => void;
}) {
  return (
    <List
      dense
      disablePadding
      aria-label="Schemas"
      sx={{ '& .MuiListSubheader-root': { bgcolor: 'background.paper', lineHeight: '32px' } }}
    >
      {SCHEMA_KINDS.map((kind) => {
        const ofKind = schemas.filter((s) => s.kind === kind);
        if (ofKind.length === 0) return null;
        return (
          <Box component="li" key={kind} sx={{ listStyle: 'none' }}>
            <Box component="ul" sx={{ p: 0 }}>
              <ListSubheader component="li">
                {KIND_LABELS[kind]} · {ofKind.length}
              </ListSubheader>
              {ofKind.map((schema) => (
                <ListItem key={schema.id} disablePadding sx={{ display: 'block' }}>
                  <ListItemButton
                    selected={schema.id === selectedId}
                    onClick={() => onSelect(schema.id)}
                    sx={{ borderRadius: 1.5, mx: 0.5 }}
                  >
                    <ListItemText
                      primary={schema.name}
                      secondary={versionNote(schema)}
                      slotProps={{
                        primary: {
                          sx: { fontFamily: 'ui-monospace, monospace', fontSize: 13, overflowWrap: 'anywhere' },
                        },
                      }}
                    />
                    {schema.riskFindings.some((f) => f.severity === 'high') && (
                      <Chip size="small" color="error" label="Risk" sx={{ ml: 1 }} />
                    )}
                    {schema.drifted && <Chip size="small" color="warning" label="Drift" sx={{ ml: 1 }} />}
                  </ListItemButton>
                </ListItem>
              ))}
            </Box>
          </Box>
        );
      })}
    </List>
  );
}
