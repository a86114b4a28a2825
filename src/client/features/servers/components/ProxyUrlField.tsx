import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { CopyButton } from '../../../components/CopyButton';

/** The URL agents are pointed at, shown whole and copied in one click. */
export function ProxyUrlField({ proxyUrl }: { proxyUrl: string }) {
  return (
    <Box>
      <Typography variant="overline" color="text.secondary" sx={{ lineHeight: 1.6 }}>
        Proxy URL
      </Typography>
      <Box
        sx={{
          display: 'flex',
          alignItems: 'center',
          gap: 1,
          border: '1px solid',
          borderColor: 'divider',
          borderRadius: 1.5,
          bgcolor: '#0d131b',
          pl: 1.5,
          pr: 0.5,
          py: 0.25,
        }}
      >
        <Typography
          component="code"
          data-testid="proxy-url"
          sx={{
            flex: 1,
            minWidth: 0,
            fontFamily: 'ui-monospace, SFMono-Regular, Menlo, monospace',
            fontSize: 13,
            overflow: 'hidden',
            textOverflow: 'ellipsis',
            whiteSpace: 'nowrap',
          }}
          title={proxyUrl}
        >
          {proxyUrl}
        </Typography>
        <CopyButton text={proxyUrl} label="Copy proxy URL" />
      </Box>
    </Box>
  );
}
