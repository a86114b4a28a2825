import { useAppSelector } from '../../app/hooks';
import { selectLiveStatus } from './liveSlice';
import type { LiveStreamStatus } from './liveStreamMachine';

/** The live stream's state: 'connected' means pushed updates arrive, so polling can stop. */
export function useLiveStreamStatus(): LiveStreamStatus {
  return useAppSelector(selectLiveStatus);
}
