import { exportFilename } from '../../../contract/dataExport';
import { Paths } from '../../../contract/routes';
import { apiSlice } from '../../api/apiSlice';
import { downloadFile } from '../../components/downloadFile';
import { ExportProgressReader, type ExportProgress } from './exportProgress';

// The workspace export (docs/operations.md "Export"): streamed JSON Lines, saved as a file once
// whole. Progress goes to the caller's listener, kept out of the store (a function is no state).

export interface ExportRequest {
  workspaceId: string;
  from?: string;
  to?: string;
  include: string;
  /** Who hears the progress (exportProgressListeners). */
  exportId: string;
}

export interface ExportDone {
  filename: string;
  sessions: number;
  lines: number;
  complete: boolean;
}

export const exportProgressListeners = new Map<string, (progress: ExportProgress) => void>();

export const exportApi = apiSlice.injectEndpoints({
  endpoints: (build) => ({
    exportWorkspaceData: build.mutation<ExportDone, ExportRequest>({
      queryFn: async ({ workspaceId, exportId, ...params }, _api, _extraOptions, baseQuery) => {
        const reader = new ExportProgressReader();
        const result = await baseQuery({
          url: Paths.workspaceExport(workspaceId),
          params,
          responseType: 'text',
          onTextChunk: (chunk: string) => exportProgressListeners.get(exportId)?.(reader.read(chunk)),
        });
        if (result.error) return { error: result.error };
        const done = reader.current;
        const filename = exportFilename(new Date());
        downloadFile(result.data as string, filename, 'application/x-ndjson');
        return { data: { filename, sessions: done.sessionsDone, lines: done.lines, complete: done.complete } };
      },
      extraOptions: { maxAttempts: 1 },
    }),
  }),
});

export const { useExportWorkspaceDataMutation } = exportApi;
