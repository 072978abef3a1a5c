// OSWorld's `python -c "import pyautogui…"` form as the server meets it: one implementation, shared with setup's
// execute steps, lives in ../actions/python-command.ts; this module names it for the server's routes.
export {
  pyautoguiCode,
  argvOfShellLine,
  pyautoguiCodeOfCommand,
  performPyautoguiCode,
} from '../actions/python-command';
