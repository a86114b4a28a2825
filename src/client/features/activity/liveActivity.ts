import { createAction } from '@reduxjs/toolkit';
import type { LiveMessage } from '../../../contract/live';

/**
 * A tool_call, session_started or session_ended message of the live stream. The live stream's
 * effects (features/live) dispatch it; the activity page listens while it is open.
 */
export const liveActivityReceived = createAction<LiveMessage>('activity/liveMessageReceived');
