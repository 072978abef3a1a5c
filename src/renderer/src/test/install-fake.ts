// Installs the fake engine as the preload bridge; imported first by the setup, before any module reads `client`.
import { fakeClient } from './fake-client';

window.proctor = fakeClient();
