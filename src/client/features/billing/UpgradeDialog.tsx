import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import LinearProgress from '@mui/material/LinearProgress';
import { PLANS } from '../../../contract/plans';
import { useGetConfigQuery } from '../flags/configApi';
import { PlanUpgradeFlow } from './PlanUpgradeFlow';
import { UpgradeText } from './upgradeText';

/**
 * SPEC §2/§4 plan upgrade dialog. Prices and price ids are the operator's, from GET /api/v1/config;
 * if that cannot load (or lists none), the contract's plans — what the server serves with no price
 * ids set — stand in.
 */
export function UpgradeDialog({ onClose }: { onClose: () => void }) {
  const config = useGetConfigQuery();
  if (config.isLoading) {
    return (
      <Dialog open onClose={onClose} fullWidth maxWidth="lg" aria-labelledby="upgrade-dialog-loading-title">
        <DialogTitle id="upgrade-dialog-loading-title">{UpgradeText.title}</DialogTitle>
        <DialogContent>
          <LinearProgress aria-label="Loading plans" />
        </DialogContent>
      </Dialog>
    );
  }
  const configuredPlans = config.data?.plans;
  return <PlanUpgradeFlow plans={configuredPlans?.length ? configuredPlans : PLANS} onClose={onClose} />;
}
