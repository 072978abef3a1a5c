// Setup of the renderer's unit tests: one fake engine installed as the preload bridge before any module reads it,
// and the rendered tree unmounted and the store's answers forgotten after each test.
import './install-fake';
import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';
import { clearStore } from '../data/store';

// jsdom lays nothing out, so it has no scrolling; the replay scrolls the current step into view.
Element.prototype.scrollIntoView ??= function scrollIntoView() {};

afterEach(() => {
  cleanup();
  clearStore();
  history.replaceState(null, '', '#/');
});
