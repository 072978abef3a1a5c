// The engine's one way to speak to a browser over the Chrome DevTools Protocol: its HTTP endpoints, a small
// websocket client (flat page sessions, events, time limits) and a tab session with the page helpers the getters
// use. Used by the accessibility tree, the environments' browsers, the setup steps and the Chrome getters.
export { CdpConnection, browserSocketUrl, type CdpEvent } from './connection';
export {
  closeDevToolsPage,
  closeTab,
  devToolsAnswers,
  listDevToolsPages,
  listTabs,
  openDevToolsTab,
  waitForDevTools,
  type DevToolsPage,
  type Tab,
} from './endpoints';
export { TabSession, evaluateInTab, type TabRef } from './tab-session';
