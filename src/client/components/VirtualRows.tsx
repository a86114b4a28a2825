import { useRef, type ReactNode } from 'react';
import Box from '@mui/material/Box';
import { observeElementRect, useVirtualizer, type Virtualizer } from '@tanstack/react-virtual';

interface VirtualRowsProps {
  count: number;
  /** Expected row height in px (rows are measured once rendered). */
  estimateSize: number;
  /** Height of the scrolling area in px. */
  height: number;
  getKey: (index: number) => string;
  renderRow: (index: number) => ReactNode;
  label: string;
}

/**
 * A scrolling list that renders only the rows in view (plus a few), so thousands of rows cost
 * what a screenful does. Before the browser has laid the list out (or where there is no layout,
 * as in jsdom) it assumes its own height, so the first paint already shows rows.
 */
export function VirtualRows({ count, estimateSize, height, getKey, renderRow, label }: VirtualRowsProps) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => estimateSize,
    getItemKey: getKey,
    overscan: 8,
    // A row without layout (not yet painted, or jsdom) keeps its estimate rather than collapsing to 0.
    measureElement: (element) => element.getBoundingClientRect().height || estimateSize,
    initialRect: { width: 0, height },
    observeElementRect: (instance: Virtualizer<HTMLDivElement, Element>, callback) =>
      observeElementRect(instance, (rect) => callback(rect.height > 0 ? rect : { width: rect.width, height })),
  });
  return (
    <Box ref={scrollRef} role="list" aria-label={label} sx={{ height, overflow: 'auto', position: 'relative' }}>
      <Box sx={{ height: virtualizer.getTotalSize(), position: 'relative', width: '100%' }}>
        {virtualizer.getVirtualItems().map((item) => (
          <Box
            key={item.key}
            role="listitem"
            data-index={item.index}
            ref={virtualizer.measureElement}
            sx={{ position: 'absolute', top: 0, left: 0, width: '100%', transform: `translateY(${item.start}px)` }}
          >
            {renderRow(item.index)}
          </Box>
        ))}
      </Box>
    </Box>
  );
}
