import { Link as RouterLink } from 'react-router-dom';
import Avatar from '@mui/material/Avatar';
import Card from '@mui/material/Card';
import CardActionArea from '@mui/material/CardActionArea';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import KeyOutlinedIcon from '@mui/icons-material/KeyOutlined';
import type { CatalogSummary } from '../../../../contract/marketplace';
import { lineClamp } from '../../../components/lineClamp';
import { RUN_KIND_LABELS } from '../catalogFilter';

export function initialsOfTitle(title: string): string {
  const words = title
    .replace(/\(.*?\)/g, '')
    .split(/[\s_-]+/)
    .filter(Boolean);
  return ((words[0]?.[0] ?? '?') + (words[1]?.[0] ?? '')).toUpperCase();
}

/** One marketplace entry: logo or initials, what it does, how it runs, whether it needs secrets. */
export function CatalogCard({ entry }: { entry: CatalogSummary }) {
  return (
    <Card variant="outlined" sx={{ height: '100%', borderRadius: 3 }}>
      <CardActionArea
        component={RouterLink}
        to={`/marketplace/${entry.slug}`}
        sx={{
          height: '100%',
          p: 2,
          display: 'flex',
          flexDirection: 'column',
          alignItems: 'stretch',
          justifyContent: 'flex-start',
          gap: 1.25,
        }}
      >
        <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center', minWidth: 0 }}>
          <Avatar
            src={entry.iconUrl ?? undefined}
            alt=""
            variant="rounded"
            slotProps={{ img: { referrerPolicy: 'no-referrer', loading: 'lazy' } }}
            sx={{
              bgcolor: 'primary.dark',
              color: 'primary.contrastText',
              width: 40,
              height: 40,
              fontSize: 16,
              fontWeight: 700,
            }}
          >
            {initialsOfTitle(entry.title)}
          </Avatar>
          <Stack sx={{ minWidth: 0 }}>
            <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 600, lineHeight: 1.3 }} noWrap>
              {entry.title}
            </Typography>
            <Typography variant="caption" color="text.secondary" noWrap>
              {entry.category}
            </Typography>
          </Stack>
        </Stack>
        <Typography variant="body2" color="text.secondary" sx={{ ...lineClamp(2), minHeight: '2.8em' }}>
          {entry.description}
        </Typography>
        <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 0.75 }}>
          {entry.runKinds.map((kind) => (
            <Chip key={kind} size="small" label={RUN_KIND_LABELS[kind]} variant="outlined" />
          ))}
          {entry.transports.map((transport) => (
            <Chip key={transport} size="small" label={transport} />
          ))}
          {entry.needsSecrets && (
            <Chip size="small" color="warning" variant="outlined" icon={<KeyOutlinedIcon />} label="Needs secrets" />
          )}
        </Stack>
      </CardActionArea>
    </Card>
  );
}
