import type { OnboardingMarkers } from './onboardingMachine';

// SPEC §4 Onboarding markers: skipping is remembered for this browser session only (session
// storage), finishing is remembered for good (local storage). ?welcome=true clears both.
export const ONBOARDING_SKIPPED_KEY = 'toolscope.onboarding_skipped';
export const ONBOARDING_COMPLETED_KEY = 'toolscope.onboarding_completed';

function read(storage: () => Storage, key: string): boolean {
  try {
    return storage().getItem(key) === 'true';
  } catch {
    return false;
  }
}

function write(storage: () => Storage, key: string, on: boolean): void {
  try {
    if (on) storage().setItem(key, 'true');
    else storage().removeItem(key);
  } catch {
    // Storage unavailable: the dialog may show again next time, which is harmless.
  }
}

const session = () => window.sessionStorage;
const local = () => window.localStorage;

export function readOnboardingMarkers(): OnboardingMarkers {
  return {
    skippedThisSession: read(session, ONBOARDING_SKIPPED_KEY),
    completed: read(local, ONBOARDING_COMPLETED_KEY),
  };
}

export const markOnboardingSkipped = () => write(session, ONBOARDING_SKIPPED_KEY, true);
export const markOnboardingCompleted = () => write(local, ONBOARDING_COMPLETED_KEY, true);
export function clearOnboardingMarkers(): void {
  write(session, ONBOARDING_SKIPPED_KEY, false);
  write(local, ONBOARDING_COMPLETED_KEY, false);
}
