import { useEffect } from 'react';
import { useMachine } from '@xstate/react';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import IconButton from '@mui/material/IconButton';
import CloseIcon from '@mui/icons-material/Close';
import type { Plan } from '../../../contract/plans';
import { useToast } from '../../components/toast';
import { PaymentStep } from './PaymentStep';
import { PlanSelectionStep } from './PlanSelectionStep';
import { selectedPlan, upgradeDialogMachine } from './upgradeDialogMachine';
import { UpgradeText } from './upgradeText';

interface PlanUpgradeFlowProps {
  plans: readonly Plan[];
  onClose: () => void;
}

/** The open upgrade dialog: renders upgradeDialogMachine's steps and sends it the user's events. */
export function PlanUpgradeFlow({ plans, onClose }: PlanUpgradeFlowProps) {
  const { toast } = useToast();
  const [snapshot, send, actorRef] = useMachine(upgradeDialogMachine, { input: { plans } });

  useEffect(() => {
    const subscriptions = [
      actorRef.on('toast', ({ title, description, variant }) => toast({ title, description, variant })),
      actorRef.on('closed', onClose),
    ];
    return () => subscriptions.forEach((subscription) => subscription.unsubscribe());
  }, [actorRef, toast, onClose]);

  const { context } = snapshot;
  const plan = selectedPlan(context);
  const close = () => send({ type: 'CLOSE' });
  const onPaymentStep = snapshot.matches('payment') && plan !== null;

  return (
    <Dialog
      open
      onClose={close}
      fullWidth
      maxWidth={onPaymentStep ? 'sm' : 'lg'}
      aria-labelledby="upgrade-dialog-title"
    >
      <DialogTitle id="upgrade-dialog-title" sx={{ pr: 6 }}>
        {UpgradeText.title}
      </DialogTitle>
      <IconButton aria-label="Close" onClick={close} sx={{ position: 'absolute', right: 12, top: 12 }}>
        <CloseIcon />
      </IconButton>
      <DialogContent>
        {onPaymentStep ? (
          <PaymentStep
            plan={plan}
            interval={context.interval}
            processing={snapshot.matches({ payment: 'processing' })}
            error={context.paymentError}
            onBack={() => send({ type: 'BACK' })}
            onPay={() => send({ type: 'PAY' })}
          />
        ) : (
          <PlanSelectionStep
            plans={context.plans}
            currentPlanId={context.currentPlanId}
            interval={context.interval}
            onIntervalChange={(interval) => send({ type: 'INTERVAL_CHANGED', interval })}
            onChoose={(planId) => send({ type: 'PLAN_CHOSEN', planId })}
          />
        )}
      </DialogContent>
    </Dialog>
  );
}
