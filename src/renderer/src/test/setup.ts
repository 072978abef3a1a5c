// Setup of the renderer's unit tests: one fake engine installed as the preload bridge before any module reads it,
// and the rendered tree unmounted after each test.
import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';
import { fakeClient } from './fake-client';

window.proctor = fakeClient();
// jsdom lays nothing out, so it has no scrolling; the replay scrolls the current step into view.
Element.prototype.scrollIntoView ??= function scrollIntoView() {};

afterEach(() => {
  cleanup();
  history.replaceState(null, '', '#/');
});
