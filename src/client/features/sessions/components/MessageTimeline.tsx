import { useEffect, useMemo, useRef } from 'react';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import type { MessageDto, ToolCallDto } from '../../../../contract/sessions';
import { MessageRow } from './MessageRow';

interface MessageTimelineProps {
  messages: MessageDto[];
  toolCalls: ToolCallDto[];
  /** How many of `messages` the replay shows. */
  position: number;
  sessionStartedAt: string;
  /** The number of the first message on this page: the replay's offset + 1. */
  firstNumber?: number;
  /** Follow the newest shown message (while the replay runs). */
  follow: boolean;
}

export function MessageTimeline({
  messages,
  toolCalls,
  position,
  sessionStartedAt,
  firstNumber = 1,
  follow,
}: MessageTimelineProps) {
  const callsById = useMemo(() => new Map(toolCalls.map((call) => [call.jsonrpcId, call])), [toolCalls]);
  const listRef = useRef<HTMLOListElement>(null);
  const start = Date.parse(sessionStartedAt);
  const shown = messages.slice(0, position);

  useEffect(() => {
    if (!follow) return;
    listRef.current?.lastElementChild?.scrollIntoView({ block: 'nearest', behavior: 'smooth' });
  }, [follow, position]);

  if (messages.length === 0) {
    return (
      <Typography color="text.secondary" sx={{ py: 3, textAlign: 'center' }}>
        No messages in this window.
      </Typography>
    );
  }
  return (
    <Box component="ol" ref={listRef} aria-label="Messages" sx={{ p: 0, m: 0 }}>
      {shown.map((message, index) => {
        const call = message.jsonrpcId !== null ? callsById.get(message.jsonrpcId) : undefined;
        const isToolMessage =
          call && (message.method === 'tools/call' || message.kind === 'response' || message.kind === 'error');
        return (
          <MessageRow
            key={message.seq}
            message={message}
            // The first message can be stamped a few ms before the session row: "+0.000 s", not "+-0.019 s".
            offsetMs={Math.max(0, Date.parse(message.createdAt) - start)}
            number={firstNumber + index}
            toolCall={isToolMessage ? call : undefined}
            current={follow && index === shown.length - 1}
          />
        );
      })}
    </Box>
  );
}
