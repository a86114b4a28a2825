import { ErrorText } from '../../../contract/errors';
import { NotificationToastText } from '../../../contract/notifications';
import { useToast } from '../../components/toast';
import {
  useArchiveNotificationsMutation,
  useMarkAllNotificationsReadMutation,
  useMarkNotificationReadMutation,
  useMarkNotificationsReadMutation,
} from './notificationsApi';

/**
 * The bell's changes with the toasts of SPEC §8. Each resolves to whether it worked, so the
 * caller can clear a selection only on success.
 */
export function useNotificationActions(workspaceId: string | null) {
  const { toast } = useToast();
  const [markRead, markReadState] = useMarkNotificationsReadMutation();
  const [markAllRead, markAllState] = useMarkAllNotificationsReadMutation();
  const [archive, archiveState] = useArchiveNotificationsMutation();
  const [markOneRead] = useMarkNotificationReadMutation();

  const fail = (description: string) =>
    toast({ title: NotificationToastText.errorTitle, description, variant: 'destructive' });

  return {
    busy: markReadState.isLoading || markAllState.isLoading || archiveState.isLoading,
    async markRead(ids: string[]): Promise<boolean> {
      try {
        await markRead(ids).unwrap();
        return true;
      } catch {
        fail(ErrorText.markReadFailed);
        return false;
      }
    },
    async markAllRead(): Promise<boolean> {
      try {
        await markAllRead({ workspaceId }).unwrap();
        toast({ title: NotificationToastText.allMarkedRead });
        return true;
      } catch {
        fail(ErrorText.markAllReadFailed);
        return false;
      }
    },
    async archive(ids: string[]): Promise<boolean> {
      try {
        await archive(ids).unwrap();
        toast({ title: NotificationToastText.archived });
        return true;
      } catch {
        fail(ErrorText.archiveFailed);
        return false;
      }
    },
    async markOneRead(id: string): Promise<boolean> {
      try {
        await markOneRead(id).unwrap();
        return true;
      } catch {
        fail(ErrorText.markOneReadFailed);
        return false;
      }
    },
  };
}
