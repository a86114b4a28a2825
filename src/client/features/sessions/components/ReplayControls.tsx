import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import LinearProgress from '@mui/material/LinearProgress';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import PauseIcon from '@mui/icons-material/Pause';
import PlayArrowIcon from '@mui/icons-material/PlayArrow';
import ReplayIcon from '@mui/icons-material/Replay';
import SkipNextIcon from '@mui/icons-material/SkipNext';
import SkipPreviousIcon from '@mui/icons-material/SkipPrevious';
import { REPLAY_SPEEDS, type ReplayEvent } from '../replay/replayMachine';

interface ReplayControlsProps {
  playing: boolean;
  position: number;
  count: number;
  /**
   * Progress notifications stored as their stream's first and last only (docs/proxy.md): why the
   * session's message count is higher than the replay's steps. Said beside the counter.
   */
  groupedProgress?: number;
  speed: number;
  send: (event: ReplayEvent) => void;
}

export function ReplayControls({ playing, position, count, groupedProgress = 0, speed, send }: ReplayControlsProps) {
  return (
    <Box role="toolbar" aria-label="Replay" sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
      <Tooltip title="Back to the start">
        <IconButton aria-label="Restart" onClick={() => send({ type: 'RESTART' })} disabled={count === 0}>
          <ReplayIcon />
        </IconButton>
      </Tooltip>
      <Tooltip title="Previous message">
        <IconButton
          aria-label="Step back"
          onClick={() => send({ type: 'STEP_BACK' })}
          disabled={playing || position === 0}
        >
          <SkipPreviousIcon />
        </IconButton>
      </Tooltip>
      {playing ? (
        <IconButton aria-label="Pause" color="primary" onClick={() => send({ type: 'PAUSE' })}>
          <PauseIcon />
        </IconButton>
      ) : (
        <IconButton aria-label="Play" color="primary" onClick={() => send({ type: 'PLAY' })} disabled={count === 0}>
          <PlayArrowIcon />
        </IconButton>
      )}
      <Tooltip title="Next message">
        <IconButton aria-label="Step" onClick={() => send({ type: 'STEP' })} disabled={count === 0}>
          <SkipNextIcon />
        </IconButton>
      </Tooltip>
      <TextField
        select
        size="small"
        label="Speed"
        value={speed}
        onChange={(e) => send({ type: 'SPEED', speed: Number(e.target.value) })}
        sx={{ width: 96 }}
      >
        {REPLAY_SPEEDS.map((s) => (
          <MenuItem key={s} value={s}>
            {`${s}×`}
          </MenuItem>
        ))}
      </TextField>
      <Box sx={{ flex: 1, minWidth: 160, display: 'flex', alignItems: 'center', gap: 1 }}>
        <LinearProgress
          variant="determinate"
          value={count === 0 ? 0 : (position / count) * 100}
          sx={{ flex: 1 }}
          aria-label="Replay progress"
        />
        <Typography variant="caption" color="text.secondary" aria-live="polite">
          {`${position} / ${count}`}
          {groupedProgress > 0 &&
            ` · ${groupedProgress} more progress notification${groupedProgress === 1 ? '' : 's'} grouped`}
        </Typography>
      </Box>
    </Box>
  );
}
