import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Typography from '@mui/material/Typography';
import type { SchemaDto, SchemaVersionDto } from '../../../../contract/schemas';
import { RelativeTime } from '../../../components/RelativeTime';
import { describePatch } from '../schemaDiff';
import { PatchDiff } from './PatchDiff';

const SOURCE_LABEL = { discovery: 'discovered', proxy: 'seen through the proxy', manual: 'written by hand' } as const;

interface VersionHistoryProps {
  schema: SchemaDto;
  /** Oldest first. */
  versions: SchemaVersionDto[];
  busy: boolean;
  onRollback: (version: number) => void;
}

/** Every version, newest first, each with the patch that produced it and a rollback. */
export function VersionHistory({ schema, versions, busy, onRollback }: VersionHistoryProps) {
  const served = schema.pinnedVersion ?? schema.currentVersion;
  return (
    <Box component="ol" aria-label="Version history" reversed sx={{ listStyle: 'none', m: 0, p: 0 }}>
      {[...versions].reverse().map((version) => {
        const previous = versions.find((v) => v.version === version.version - 1);
        const isServed = version.version === served;
        return (
          <Box
            component="li"
            key={version.id}
            aria-label={`Version ${version.version}`}
            sx={{
              position: 'relative',
              pl: 3,
              pb: 2.5,
              borderLeft: '2px solid',
              borderColor: 'divider',
              ml: 1,
              '&:last-of-type': { pb: 0 },
            }}
          >
            <Box
              sx={{
                position: 'absolute',
                left: -7,
                top: 4,
                width: 12,
                height: 12,
                borderRadius: '50%',
                bgcolor: isServed ? 'primary.main' : 'divider',
              }}
            />
            <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap', mb: 0.75 }}>
              <Typography variant="subtitle2">v{version.version}</Typography>
              {version.version === schema.currentVersion && <Chip size="small" label="latest" variant="outlined" />}
              {schema.pinnedVersion === version.version && <Chip size="small" color="primary" label="pinned" />}
              {isServed && <Chip size="small" color="success" variant="outlined" label="served to agents" />}
              <Typography variant="caption" color="text.secondary">
                {SOURCE_LABEL[version.source]} <RelativeTime value={version.createdAt} />
              </Typography>
              <Box sx={{ flex: 1 }} />
              {!isServed && (
                <Button size="small" disabled={busy} onClick={() => onRollback(version.version)}>
                  {version.version === schema.currentVersion
                    ? `Serve v${version.version} (unpin)`
                    : `Roll back to v${version.version}`}
                </Button>
              )}
            </Box>
            <PatchDiff lines={describePatch(version.patch, previous?.definition)} />
          </Box>
        );
      })}
    </Box>
  );
}
