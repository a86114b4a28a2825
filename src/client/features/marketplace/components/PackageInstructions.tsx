import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { runKindOf, type CatalogPackage } from '../../../../contract/marketplace';
import { CodeFrame } from '../../../components/CodeFrame';
import { RUN_KIND_LABELS } from '../catalogFilter';
import { packageCommand } from '../runCommand';
import { TableScroll } from '../../../components/TableScroll';

/** A package: the command that runs it and the environment variables it reads. */
export function PackageInstructions({ pkg }: { pkg: CatalogPackage }) {
  const command = packageCommand(pkg);
  const kind = runKindOf(pkg);
  const env = pkg.environmentVariables ?? [];
  return (
    <Box sx={{ mb: 3 }}>
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', mb: 1, flexWrap: 'wrap' }}>
        <Typography variant="subtitle2" sx={{ overflowWrap: 'anywhere' }}>
          {pkg.identifier}
        </Typography>
        {kind && <Chip size="small" label={RUN_KIND_LABELS[kind]} variant="outlined" />}
        {pkg.version && <Chip size="small" label={`v${pkg.version}`} />}
        <Chip size="small" label={pkg.transport.type} />
      </Stack>
      <CodeFrame copyText={command} copyLabel="Copy command">
        {command}
      </CodeFrame>
      {env.length > 0 && (
        <Box sx={{ overflowX: 'auto', mt: 1.5 }}>
          <TableScroll label={`Environment variables of ${pkg.identifier}`}>
            <Table size="small" aria-label={`Environment variables of ${pkg.identifier}`}>
              <TableHead>
                <TableRow>
                  <TableCell>Variable</TableCell>
                  <TableCell>What it is</TableCell>
                  <TableCell>Needed</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {env.map((variable) => (
                  <TableRow key={variable.name}>
                    <TableCell sx={{ fontFamily: 'monospace' }}>{variable.name}</TableCell>
                    <TableCell>
                      {variable.description}
                      {variable.default ? ` (default ${variable.default})` : ''}
                    </TableCell>
                    <TableCell>
                      <Stack direction="row" spacing={0.5}>
                        <Chip
                          size="small"
                          label={variable.isRequired === false ? 'Optional' : 'Required'}
                          variant="outlined"
                        />
                        {variable.isSecret && <Chip size="small" color="warning" label="Secret" variant="outlined" />}
                      </Stack>
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </TableScroll>
        </Box>
      )}
    </Box>
  );
}
