import '@testing-library/jest-dom';
import { configure } from '@testing-library/react';

// findBy… and waitFor wait for a state; on a loaded machine (CI's 2 shared cores) a transition such
// as a toast replacing another can take longer than the library's 1 s default. Files may set more.
configure({ asyncUtilTimeout: 5_000 });

// jsdom lays nothing out, so it has no scrollIntoView; every browser has. The app calls it as they do.
Object.defineProperty(Element.prototype, 'scrollIntoView', { value: () => undefined, configurable: true });
