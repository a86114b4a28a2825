import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { LiveStreamStatus } from './liveStreamMachine';

// What the live stream is doing, for the header's dot and for features that poll only while the
// stream is down. The machine owns the flow; this slice only mirrors its state for the UI.
export interface LiveState {
  status: LiveStreamStatus;
  /** 'No authentication token' when there is none, otherwise null. */
  error: string | null;
}

const initialState: LiveState = { status: 'off', error: null };

export const liveSlice = createSlice({
  name: 'live',
  initialState,
  reducers: {
    liveStatusChanged(state, action: PayloadAction<LiveState>) {
      state.status = action.payload.status;
      state.error = action.payload.error;
    },
  },
  selectors: {
    selectLiveStatus: (state) => state.status,
    selectLiveError: (state) => state.error,
  },
});

export const { liveStatusChanged } = liveSlice.actions;
export const { selectLiveStatus, selectLiveError } = liveSlice.selectors;
export const liveReducer = liveSlice.reducer;
