import { createSlice, type PayloadAction } from '@reduxjs/toolkit';

// Which app-level dialog is open. The shell opens them; AppDialogs renders the open one.
export const DIALOG_NAMES = ['createWorkspace', 'upgrade', 'onboarding'] as const;
export type DialogName = (typeof DIALOG_NAMES)[number];

export interface DialogsState {
  open: DialogName | null;
}

const initialState: DialogsState = { open: null };

export const dialogsSlice = createSlice({
  name: 'dialogs',
  initialState,
  reducers: {
    openDialog(state, action: PayloadAction<DialogName>) {
      state.open = action.payload;
    },
    closeDialog(state) {
      state.open = null;
    },
  },
  selectors: {
    selectOpenDialog: (state) => state.open,
  },
});

export const { openDialog, closeDialog } = dialogsSlice.actions;
export const { selectOpenDialog } = dialogsSlice.selectors;
export const dialogsReducer = dialogsSlice.reducer;
