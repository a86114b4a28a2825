import '@testing-library/jest-dom';

// jsdom lays nothing out, so it has no scrollIntoView; every browser has. The app calls it as they do.
Object.defineProperty(Element.prototype, 'scrollIntoView', { value: () => undefined, configurable: true });
