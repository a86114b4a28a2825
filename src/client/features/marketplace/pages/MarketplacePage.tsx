import { useDeferredValue, useEffect, useMemo, useRef, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import InputAdornment from '@mui/material/InputAdornment';
import MenuItem from '@mui/material/MenuItem';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import SearchIcon from '@mui/icons-material/Search';
import StorefrontOutlinedIcon from '@mui/icons-material/StorefrontOutlined';
import { RUN_KINDS, type CatalogSummary, type RunKind } from '../../../../contract/marketplace';
import { errorMessage } from '../../../api/apiError';
import { EmptyState } from '../../../components/EmptyState';
import { PageHeader } from '../../../components/PageHeader';
import { VirtualRows } from '../../../components/VirtualRows';
import { filterCatalog, RUN_KIND_LABELS, searchTextOf } from '../catalogFilter';
import { CatalogCard } from '../components/CatalogCard';
import { useGetCatalogQuery } from '../marketplaceApi';

const CARD_ROW_HEIGHT = 196;
const MIN_CARD_WIDTH = 280;

/** Cards per row for the width the grid has (1 before layout, as in jsdom). */
function useColumns(): [React.RefObject<HTMLDivElement | null>, number] {
  const ref = useRef<HTMLDivElement>(null);
  const [columns, setColumns] = useState(1);
  useEffect(() => {
    const element = ref.current;
    if (!element || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(([entry]) =>
      setColumns(Math.max(1, Math.floor((entry.contentRect.width + 16) / (MIN_CARD_WIDTH + 16)))),
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  return [ref, columns];
}

/**
 * /marketplace: the catalog as cards with search, category and run-kind filters. Filters live in
 * the query string (shareable, kept on Back); the grid renders only the rows in view, so a
 * registry of thousands of servers scrolls like a dozen.
 */
export default function MarketplacePage() {
  const catalog = useGetCatalogQuery();
  const [params, setParams] = useSearchParams();
  const query = params.get('q') ?? '';
  const category = params.get('category') ?? '';
  const runKind = (RUN_KINDS as readonly string[]).includes(params.get('run') ?? '')
    ? (params.get('run') as RunKind)
    : '';
  const deferredQuery = useDeferredValue(query);
  const setParam = (key: string, value: string) => {
    const next = new URLSearchParams(params);
    if (value) next.set(key, value);
    else next.delete(key);
    setParams(next, { replace: true });
  };

  const entries = catalog.data?.servers;
  const texts = useMemo(() => (entries ?? []).map(searchTextOf), [entries]);
  const categories = useMemo(() => [...new Set((entries ?? []).map((e) => e.category))].sort(), [entries]);
  const results = useMemo(
    () => filterCatalog(entries ?? [], texts, { query: deferredQuery, category, runKind }),
    [entries, texts, deferredQuery, category, runKind],
  );
  const [gridRef, columns] = useColumns();
  const rows = useMemo(() => {
    const out: CatalogSummary[][] = [];
    for (let i = 0; i < results.length; i += columns) out.push(results.slice(i, i + columns));
    return out;
  }, [results, columns]);
  const height = Math.min(
    rows.length * CARD_ROW_HEIGHT + 8,
    typeof window === 'undefined' ? 800 : Math.max(420, window.innerHeight - 280),
  );

  return (
    <>
      <PageHeader
        title="Marketplace"
        subtitle="Ready-made MCP tool servers: connect a remote one in a click, or run a package"
      />
      {catalog.data?.warning && (
        <Alert severity="warning" sx={{ mb: 2 }}>
          {catalog.data.warning}
        </Alert>
      )}
      <Stack direction={{ xs: 'column', md: 'row' }} spacing={1.5} sx={{ mb: 2 }}>
        <TextField
          label="Search"
          placeholder="Name, description or tag"
          value={query}
          onChange={(e) => setParam('q', e.target.value)}
          fullWidth
          slotProps={{
            input: {
              startAdornment: (
                <InputAdornment position="start">
                  <SearchIcon />
                </InputAdornment>
              ),
            },
            htmlInput: { 'aria-label': 'Search the marketplace' },
          }}
        />
        <TextField
          select
          label="Category"
          value={category}
          onChange={(e) => setParam('category', e.target.value)}
          sx={{ minWidth: 200 }}
        >
          <MenuItem value="">All categories</MenuItem>
          {categories.map((c) => (
            <MenuItem key={c} value={c}>
              {c}
            </MenuItem>
          ))}
        </TextField>
        <TextField
          select
          label="Runs as"
          value={runKind}
          onChange={(e) => setParam('run', e.target.value)}
          sx={{ minWidth: 160 }}
        >
          <MenuItem value="">Any</MenuItem>
          {RUN_KINDS.map((kind) => (
            <MenuItem key={kind} value={kind}>
              {RUN_KIND_LABELS[kind]}
            </MenuItem>
          ))}
        </TextField>
      </Stack>
      {catalog.isError && !entries && <Alert severity="error">{errorMessage(catalog.error)}</Alert>}
      {!entries && !catalog.isError && (
        <Box
          sx={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(280px, 1fr))', gap: 2 }}
          aria-label="Loading the marketplace"
        >
          {Array.from({ length: 6 }, (_, i) => (
            <Skeleton key={i} variant="rounded" height={170} sx={{ borderRadius: 3 }} />
          ))}
        </Box>
      )}
      {entries && (
        <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }} aria-live="polite">
          {`${results.length.toLocaleString('en')} of ${entries.length.toLocaleString('en')} servers`}
        </Typography>
      )}
      <Box ref={gridRef}>
        {entries && results.length === 0 && (
          <EmptyState
            icon={<StorefrontOutlinedIcon />}
            title="No server matches"
            description="Try fewer words, another category or any run kind."
            action={{ label: 'Connect your own server', to: '/servers' }}
          />
        )}
        {results.length > 0 && (
          <VirtualRows
            label="Marketplace servers"
            count={rows.length}
            estimateSize={CARD_ROW_HEIGHT}
            height={height}
            getKey={(index) => rows[index].map((e) => e.slug).join('|')}
            renderRow={(index) => (
              <Box
                sx={{
                  display: 'grid',
                  gridTemplateColumns: `repeat(${columns}, minmax(0, 1fr))`,
                  gap: 2,
                  pb: 2,
                  pr: 0.5,
                }}
              >
                {rows[index].map((entry) => (
                  <CatalogCard key={entry.slug} entry={entry} />
                ))}
              </Box>
            )}
          />
        )}
      </Box>
    </>
  );
}
