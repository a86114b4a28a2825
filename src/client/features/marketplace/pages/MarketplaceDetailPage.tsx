import { Link as RouterLink, useParams } from 'react-router-dom';
import Alert from '@mui/material/Alert';
import Avatar from '@mui/material/Avatar';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import Link from '@mui/material/Link';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import StorefrontOutlinedIcon from '@mui/icons-material/StorefrontOutlined';
import { errorMessage, isApiError } from '../../../api/apiError';
import { EmptyState } from '../../../components/EmptyState';
import { PageHeader } from '../../../components/PageHeader';
import { packageLaunch } from '../../../../contract/packageLaunch';
import { RUN_KIND_LABELS } from '../catalogFilter';
import { initialsOfTitle } from '../components/CatalogCard';
import { ConnectRemoteForm } from '../components/ConnectRemoteForm';
import { DeployPackageForm } from '../components/DeployPackageForm';
import { PackageInstructions } from '../components/PackageInstructions';
import { useGetCatalogEntryQuery } from '../marketplaceApi';

const isHttpUrl = (url: string | undefined) => Boolean(url && /^https?:\/\//i.test(url));

/** /marketplace/{slug}: what the server does, how it runs, and Connect or the command to run it. */
export default function MarketplaceDetailPage() {
  const { slug = '' } = useParams();
  const entry = useGetCatalogEntryQuery(slug, { skip: !slug });
  const back = (
    <Button component={RouterLink} to="/marketplace" startIcon={<ArrowBackIcon />} sx={{ mb: 2 }}>
      Marketplace
    </Button>
  );
  // Until the entry is known, the page is still titled: the shell's heading never goes missing.
  const pendingHeader = <PageHeader title="Marketplace" subtitle={slug} />;

  if (entry.isError && isApiError(entry.error) && entry.error.status === 404) {
    return (
      <>
        {back}
        {pendingHeader}
        <EmptyState
          icon={<StorefrontOutlinedIcon />}
          title="Not in the marketplace"
          description={`No server called “${slug}” is in this marketplace's catalog.`}
          action={{ label: 'Back to the marketplace', to: '/marketplace' }}
        />
      </>
    );
  }
  if (entry.isError && !entry.data)
    return (
      <>
        {back}
        {pendingHeader}
        <Alert severity="error">{errorMessage(entry.error)}</Alert>
      </>
    );
  const data = entry.data;
  if (!data)
    return (
      <>
        {back}
        {pendingHeader}
        <Skeleton variant="rounded" height={360} aria-label="Loading server" />
      </>
    );

  const server = data.server;
  // Only an http(s) link is offered: a catalog entry is third-party text.
  const repository = server.repository && isHttpUrl(server.repository.url) ? server.repository : null;
  const packages = server.packages ?? [];
  const remotes = server.remotes ?? [];
  const runnable = packages.filter((p) => ['npm', 'pypi', 'oci', 'docker'].includes(p.registryType.toLowerCase()));
  const deployable = packages.some((p) => packageLaunch(p) !== null);
  return (
    <>
      {back}
      <PageHeader title={data.title} subtitle={server.name} />
      <Stack direction={{ xs: 'column', lg: 'row' }} spacing={3} sx={{ alignItems: 'flex-start' }}>
        <Card sx={{ flex: 1, minWidth: 0, width: '100%' }}>
          <CardContent>
            <Stack direction="row" spacing={2} sx={{ alignItems: 'center', mb: 2 }}>
              <Avatar
                src={data.iconUrl ?? undefined}
                alt=""
                variant="rounded"
                slotProps={{ img: { referrerPolicy: 'no-referrer' } }}
                sx={{ width: 56, height: 56, bgcolor: 'primary.dark', color: 'primary.contrastText', fontWeight: 700 }}
              >
                {initialsOfTitle(data.title)}
              </Avatar>
              <Box sx={{ minWidth: 0 }}>
                <Typography sx={{ overflowWrap: 'anywhere' }}>{data.description}</Typography>
                <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 0.75, mt: 1 }}>
                  <Chip size="small" label={data.category} color="primary" variant="outlined" />
                  {data.version && <Chip size="small" label={`v${data.version}`} />}
                  {data.runKinds.map((k) => (
                    <Chip key={k} size="small" label={RUN_KIND_LABELS[k]} variant="outlined" />
                  ))}
                  {data.tags.map((tag) => (
                    <Chip key={tag} size="small" label={tag} variant="outlined" sx={{ borderStyle: 'dashed' }} />
                  ))}
                </Stack>
              </Box>
            </Stack>
            <Stack spacing={0.5} sx={{ mb: 2 }}>
              {repository && (
                <Link href={repository.url} target="_blank" rel="noopener noreferrer" sx={{ overflowWrap: 'anywhere' }}>
                  {`Repository: ${repository.url}${repository.subfolder ? ` (${repository.subfolder})` : ''}`}
                </Link>
              )}
              {isHttpUrl(server.websiteUrl) && (
                <Link
                  href={server.websiteUrl}
                  target="_blank"
                  rel="noopener noreferrer"
                  sx={{ overflowWrap: 'anywhere' }}
                >
                  {`Website: ${server.websiteUrl}`}
                </Link>
              )}
            </Stack>
            {remotes.length > 0 && (
              <Box sx={{ mb: 3 }}>
                <Typography variant="h6" component="h2" sx={{ mb: 1 }}>
                  Remote endpoints
                </Typography>
                {remotes.map((remote) => (
                  <Box key={remote.url + remote.type} sx={{ mb: 1 }}>
                    <Typography
                      variant="body2"
                      sx={{ fontFamily: 'monospace', overflowWrap: 'anywhere' }}
                    >{`${remote.type} · ${remote.url}`}</Typography>
                    {(remote.headers ?? []).map((h) => (
                      <Typography key={h.name} variant="caption" color="text.secondary" component="div">
                        {`Header ${h.name}${h.isSecret ? ' (secret)' : ''}${h.isRequired ? ', required' : ''}: ${h.description ?? ''}`}
                      </Typography>
                    ))}
                  </Box>
                ))}
              </Box>
            )}
            {packages.length > 0 && (
              <Box>
                <Typography variant="h6" component="h2" sx={{ mb: 1 }}>
                  Packages
                </Typography>
                {packages.map((pkg) => (
                  <PackageInstructions key={`${pkg.registryType}:${pkg.identifier}`} pkg={pkg} />
                ))}
              </Box>
            )}
            {data.tools.length > 0 && (
              <Box>
                <Typography variant="h6" component="h2" sx={{ mb: 1 }}>
                  Tools
                </Typography>
                <Stack
                  direction="row"
                  sx={{ flexWrap: 'wrap', gap: 0.75 }}
                  component="ul"
                  aria-label="Tools"
                  style={{ listStyle: 'none', padding: 0, margin: 0 }}
                >
                  {data.tools.map((tool) => (
                    <li key={tool}>
                      <Chip size="small" label={tool} sx={{ fontFamily: 'monospace' }} />
                    </li>
                  ))}
                </Stack>
              </Box>
            )}
          </CardContent>
        </Card>
        <Card sx={{ width: { xs: '100%', lg: 420 }, flexShrink: 0 }}>
          <CardContent>
            {remotes.length > 0 ? (
              <>
                <Typography variant="h6" component="h2" sx={{ mb: 2 }}>
                  Connect
                </Typography>
                <ConnectRemoteForm entry={data} />
              </>
            ) : runnable.length > 0 ? (
              <>
                <Typography variant="h6" component="h2" sx={{ mb: 2 }}>
                  Deploy
                </Typography>
                {deployable ? (
                  <DeployPackageForm entry={data} />
                ) : (
                  <Alert severity="info">
                    This package is not a stdio program Toolscope can start. Run the command beside on a machine of
                    yours behind an MCP HTTP bridge, then add its URL on Tool Servers.
                  </Alert>
                )}
              </>
            ) : (
              <Alert severity="info">
                This entry has no remote endpoint and no package Toolscope knows how to run.
              </Alert>
            )}
          </CardContent>
        </Card>
      </Stack>
    </>
  );
}
