import { useEffect, useMemo } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { useMachine } from '@xstate/react';
import { useAppSelector } from '../../app/hooks';
import { useGetConfigQuery } from '../flags/configApi';
import { useFlag } from '../flags/useFlag';
import { useGetServersQuery } from '../servers/serversApi';
import { selectCurrentWorkspaceId } from '../workspaces/workspaceSlice';
import { onboardingMachine } from './onboardingMachine';
import {
  clearOnboardingMarkers,
  markOnboardingCompleted,
  markOnboardingSkipped,
  readOnboardingMarkers,
} from './onboardingMarkers';
import { OnboardingSteps } from './OnboardingSteps';

/** The two-step onboarding of SPEC §4, behind the show_onboarding_modal flag. */
export function OnboardingDialog() {
  const enabled = useFlag('show_onboarding_modal');
  // Wait for the server's flags: the default is on, and a dialog that flashes open before the
  // configuration turns it off would be worse than one that opens a moment later.
  const { isLoading } = useGetConfigQuery();
  return enabled && !isLoading ? <OnboardingController /> : null;
}

function OnboardingController() {
  const navigate = useNavigate();
  const { search } = useLocation();
  const workspaceId = useAppSelector(selectCurrentWorkspaceId);
  // currentData: the list of this workspace, undefined until it has loaded.
  const { currentData: servers } = useGetServersQuery(workspaceId ?? '', { skip: !workspaceId });

  const logic = useMemo(
    () =>
      onboardingMachine.provide({
        actions: {
          clearMarkers: clearOnboardingMarkers,
          markSkipped: markOnboardingSkipped,
          markCompleted: markOnboardingCompleted,
          goToServers: () => void navigate('/servers'),
        },
      }),
    [navigate],
  );
  const [snapshot, send] = useMachine(logic);

  useEffect(() => {
    const query = new URLSearchParams(search);
    send({
      type: 'LOCATION',
      welcome: query.get('welcome') === 'true',
      noservers: query.get('noservers') === 'true',
      markers: readOnboardingMarkers(),
    });
  }, [search, send]);

  const serverCount = servers?.length;
  useEffect(() => {
    if (serverCount !== undefined)
      send({ type: 'SERVERS_LOADED', count: serverCount, markers: readOnboardingMarkers() });
  }, [serverCount, send]);

  if (snapshot.matches('closed')) return null;
  return (
    <OnboardingSteps
      step={snapshot.matches({ open: 'connect' }) ? 'connect' : 'welcome'}
      onGetStarted={() => send({ type: 'GET_STARTED' })}
      onSkip={() => send({ type: 'SKIP' })}
      onClose={() => send({ type: 'CLOSE' })}
      onLater={() => send({ type: 'LATER' })}
      onConnect={() => send({ type: 'CONNECT' })}
    />
  );
}
